// Div: A / B, multidirectional broadcasting. Integer division truncates toward zero;
// an integer division by zero is an error rather than a crash.
#include <type_traits>

#include "ops/elementwise.h"
#include "ops/onnx/arith_def.h"

namespace bough::ops {

namespace {
namespace div_op {
struct DivFn {
  template <typename T>
  auto operator()(T a, T b) const {
    // INT_MIN / -1 traps on x86; negating wraps to INT_MIN, as numpy gives.
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>)
      if (b == -1) return static_cast<T>(-a);
    return static_cast<T>(a / b);
  }
};

void check_no_zero_divisor(const Tensor& b) {
  if (is_float_type(b.type())) return;
  for (int64_t i = 0; i < b.numel(); ++i)
    if (b.get_int(i) == 0) fail(ErrorKind::BadInput, "", "integer division by zero");
}

void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  check_no_zero_divisor(b);
  arith<DivFn>(a, b, out, pool, "Div");
}
}  // namespace div_op
}  // namespace

OpDef def_Div() {
  using namespace div_op;
  return arith_def("Div", make_binary<compute>);
}

}  // namespace bough::ops
