// Log: natural logarithm, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct LogFn {
  template <typename T>
  T operator()(T v) const {
    return std::log(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<LogFn>(x, out, pool, "Log");
}
}  // namespace

const OpDef& def_Log() {
  static const OpDef def{"", "Log", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
