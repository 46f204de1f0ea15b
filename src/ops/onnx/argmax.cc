// ArgMax: the index of the largest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMax() {
  static const OpDef def{
      "",
      "ArgMax",
      {1, 11, 12, 13},
      1,
      1,
      1,
      1,
      make_arg_reduce<true>,
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
