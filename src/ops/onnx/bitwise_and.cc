// BitwiseAnd: A & B on integers, multidirectional broadcasting.
#include "ops/onnx/bitwise.h"

namespace bough::ops {

namespace {
namespace bitwise_and_op {
struct BitwiseAndFn {
  static constexpr char kName[] = "BitwiseAnd";
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
}  // namespace bitwise_and_op
}  // namespace

OpDef def_BitwiseAnd() { return bitwise_def<bitwise_and_op::BitwiseAndFn>(); }

}  // namespace bough::ops
