// ArgMin: the index of the smallest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMin() {
  static const OpDef def{
      "",
      "ArgMin",
      {1, 11, 12, 13},
      1,
      1,
      1,
      1,
      make_arg_reduce<false>,
      infer_arg_reduce,
      {{1, "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1"},
       {11, "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1"},
       {12,
        "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1, "
        "select_last_index: int = 0"},
       {13,
        "data: T -> reduced: tensor(int64); T = numeric bfloat16; axis: int = 0, keepdims: int = "
        "1, select_last_index: int = 0"}}};
  return def;
}

}  // namespace bough::ops
