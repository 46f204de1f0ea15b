// BitwiseXor: A ^ B on integers, multidirectional broadcasting.
#include "ops/onnx/bitwise.h"

namespace bough::ops {

namespace {
namespace bitwise_xor_op {
struct BitwiseXorFn {
  static constexpr char kName[] = "BitwiseXor";
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};
}  // namespace bitwise_xor_op
}  // namespace

OpDef def_BitwiseXor() { return bitwise_def<bitwise_xor_op::BitwiseXorFn>(); }

}  // namespace bough::ops
