// ArgMax: the index of the largest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMax() {
  static const OpDef def{"", "ArgMax", {1, 11, 12, 13}, 1, 1, 1, 1, make_arg_reduce<true>};
  return def;
}

}  // namespace bough::ops
