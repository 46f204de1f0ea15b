// BitwiseOr: A | B on integers, multidirectional broadcasting.
#include "ops/onnx/bitwise.h"

namespace bough::ops {

namespace {
namespace bitwise_or_op {
struct BitwiseOrFn {
  static constexpr char kName[] = "BitwiseOr";
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};
}  // namespace bitwise_or_op
}  // namespace

OpDef def_BitwiseOr() { return bitwise_def<bitwise_or_op::BitwiseOrFn>(); }

}  // namespace bough::ops
