// BitwiseAnd: A & B on integers, multidirectional broadcasting.
#include "ops/onnx/bitwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bitwise_and_op {
struct BitwiseAndFn {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
Tensor compute(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  return bitwise_binary<BitwiseAndFn>(a, b, pool, "BitwiseAnd");
}
}  // namespace bitwise_and_op
}  // namespace

const OpDef& def_BitwiseAnd() {
  using namespace bitwise_and_op;
  static const OpDef def{"",
                         "BitwiseAnd",
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
