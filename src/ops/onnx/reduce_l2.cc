// ReduceL2: the square root of the sum of squares over the given axes (see
// ops/onnx/reduce_op.h); integer results are the root truncated.
#include "ops/onnx/reduce_op.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace reduce_l2_op {
template <typename T>
struct L2Reducer : SumReducer<T> {
  T step(T a, T x) const { return static_cast<T>(a + x * x); }
  T finish(T a, int64_t) const { return util::from_double<T>(std::sqrt(static_cast<double>(a))); }
};
}  // namespace reduce_l2_op
}  // namespace

OpDef def_ReduceL2() { return numeric_reduce_def<reduce_l2_op::L2Reducer>("ReduceL2"); }

}  // namespace bough::ops
