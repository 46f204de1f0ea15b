// Equal: A == B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct EqualFn {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<EqualFn>(a, b, out, pool, "Equal");
}
}  // namespace

const OpDef& def_Equal() {
  static const OpDef def{"", "Equal", {1, 7, 11, 13, 19}, 2, 2, 1, 1, make_binary<compute>};
  return def;
}

}  // namespace bough::ops
