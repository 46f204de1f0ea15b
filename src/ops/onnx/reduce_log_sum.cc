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
}  // namespace reduce_log_sum_op
}  // namespace

OpDef def_ReduceLogSum() {
  return numeric_reduce_def<reduce_log_sum_op::LogSumReducer>("ReduceLogSum");
}

}  // namespace bough::ops
