// ReduceSumSquare: the sum of squares over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_sum_square_op {
template <typename T>
struct SumSquareReducer : SumReducer<T> {
  T step(T a, T x) const { return static_cast<T>(a + x * x); }
};
}  // namespace reduce_sum_square_op
}  // namespace

OpDef def_ReduceSumSquare() {
  return numeric_reduce_def<reduce_sum_square_op::SumSquareReducer>("ReduceSumSquare");
}

}  // namespace bough::ops
