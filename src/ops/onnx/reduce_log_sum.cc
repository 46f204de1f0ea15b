// ReduceLogSum: the natural log of the sum over the given axes (see ops/onnx/reduce_op.h);
// an empty set gives -inf.
#include "ops/onnx/reduce_op.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace reduce_log_sum_op {
template <typename T>
struct LogSumReducer : SumReducer<T> {
  T finish(T a, int64_t) const { return util::from_double<T>(std::log(static_cast<double>(a))); }
};
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<LogSumReducer>(x, plan, "ReduceLogSum");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_log_sum_op
}  // namespace

const OpDef& def_ReduceLogSum() {
  using namespace reduce_log_sum_op;
  static const OpDef def = numeric_reduce_def("ReduceLogSum", make);
  return def;
}

}  // namespace bough::ops
