// Log: natural logarithm, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace log_op {
struct LogFn {
  static constexpr kernels::FastFn kFast = kernels::FastFn::Log;
  static constexpr int64_t kWork = kernels::kLogWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_log(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<LogFn>(x, out, pool, "Log");
}
}  // namespace log_op
}  // namespace

const OpDef& def_Log() {
  using namespace log_op;
  static const OpDef def{"",
                         "Log",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats; consumed_inputs: ints?"},
                          {6, "input: T -> output: T; T = floats"},
                          {13, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
