// ArgMin: the index of the smallest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMin() {
  static const OpDef def{"", "ArgMin", {1, 11, 12, 13}, 1, 1, 1, 1, make_arg_reduce<false>};
  return def;
}

}  // namespace bough::ops
