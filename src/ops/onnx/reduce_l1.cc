// ReduceL1: the sum of absolute values over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_l1_op {
template <typename T>
struct L1Reducer : SumReducer<T> {
  T step(T a, T x) const {
    if constexpr (std::is_signed_v<T>)
      return static_cast<T>(a + (x < 0 ? -x : x));
    else
      return static_cast<T>(a + x);
  }
};
}  // namespace reduce_l1_op
}  // namespace

OpDef def_ReduceL1() { return numeric_reduce_def<reduce_l1_op::L1Reducer>("ReduceL1"); }

}  // namespace bough::ops
