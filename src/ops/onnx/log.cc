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
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<LogFn>(x, pool, "Log");
}
}  // namespace

const OpDef& def_Log() {
  static const OpDef def{"", "Log", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
