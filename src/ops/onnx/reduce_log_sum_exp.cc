// ReduceLogSumExp: log(sum(exp(x))) over the given axes (see ops/onnx/reduce_op.h),
// accumulated as a running maximum and a sum scaled by it, so large inputs do not overflow;
// an empty set gives -inf.
#include "ops/onnx/reduce_op.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace reduce_log_sum_exp_op {
template <typename T>
struct LogSumExpReducer {
  struct Acc {
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0;  // sum of exp(x - max)
  };
  Acc init() const { return {}; }
  Acc step(Acc a, T x) const { return merge(a, Acc{static_cast<double>(x), 1.0}); }
  Acc merge(Acc a, Acc b) const {
    if (b.sum == 0) return a;
    if (a.sum == 0) return b;
    if (a.max == b.max) return {a.max, a.sum + b.sum};
    if (a.max < b.max) std::swap(a, b);
    return {a.max, a.sum + b.sum * std::exp(b.max - a.max)};
  }
  T finish(Acc a, int64_t) const { return util::from_double<T>(a.max + std::log(a.sum)); }
};
}  // namespace reduce_log_sum_exp_op
}  // namespace

OpDef def_ReduceLogSumExp() {
  return numeric_reduce_def<reduce_log_sum_exp_op::LogSumExpReducer>("ReduceLogSumExp");
}

}  // namespace bough::ops
