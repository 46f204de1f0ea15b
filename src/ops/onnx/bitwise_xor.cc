// BitwiseXor: A ^ B on integers, multidirectional broadcasting.
#include "ops/onnx/bitwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bitwise_xor_op {
struct BitwiseXorFn {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};
Tensor compute(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  return bitwise_binary<BitwiseXorFn>(a, b, pool, "BitwiseXor");
}
}  // namespace bitwise_xor_op
}  // namespace

const OpDef& def_BitwiseXor() {
  using namespace bitwise_xor_op;
  static const OpDef def{"",
                         "BitwiseXor",
                         {18},
                         2,
                         2,
                         1,
                         1,
                         make_binary<compute>,
                         infer_broadcast,
                         {{18, "A: T, B: T -> C: T; T = ints uints"}}};
  return def;
}

}  // namespace bough::ops
