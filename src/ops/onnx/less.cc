// Less: A < B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct LessFn {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<LessFn>(a, b, out, pool, "Less");
}
}  // namespace

const OpDef& def_Less() {
  static const OpDef def{"", "Less", {1, 7, 9, 13}, 2, 2, 1, 1, make_binary<compute>};
  return def;
}

}  // namespace bough::ops
