// BitShift: X shifted by Y bits, direction "LEFT" or "RIGHT", on unsigned integers with
// multidirectional broadcasting. Shifting by the type's width or more gives 0.
#include <type_traits>

#include "ops/def_from_rows.h"
#include "ops/onnx/bitwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bit_shift_op {
template <bool Left>
struct ShiftFn {
  template <typename T>
  T operator()(T x, T y) const {
    if (static_cast<uint64_t>(y) >= sizeof(T) * 8) return T(0);
    return static_cast<T>(Left ? x << y : x >> y);
  }
};

template <bool Left>
Tensor compute(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  if (is_signed_integer(a.type())) kernels::unsupported_type(a.type(), "BitShift");
  return bitwise_binary<ShiftFn<Left>>(a, b, pool, "BitShift");
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const std::string direction = ctx.attr_string("direction", "");
  if (direction == "LEFT") return make_binary<compute<true>>(ctx);
  if (direction == "RIGHT") return make_binary<compute<false>>(ctx);
  ctx.invalid("BitShift direction must be \"LEFT\" or \"RIGHT\"");
}
constexpr SignatureText kRows[] = {{11, "X: T, Y: T -> Z: T; T = uints; direction: string"}};

}  // namespace bit_shift_op
}  // namespace

OpDef def_BitShift() {
  using namespace bit_shift_op;
  return def_from_rows("", "BitShift", make, infer_broadcast, kRows);
}

}  // namespace bough::ops
