// Div: A / B, multidirectional broadcasting. Integer division truncates toward zero;
// an integer division by zero is an error rather than a crash.
#include <type_traits>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
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
}  // namespace

const OpDef& def_Div() {
  static const OpDef def{
      "",
      "Div",
      {1, 6, 7, 13, 14},
      2,
      2,
      1,
      1,
      make_binary<compute>,
      infer_broadcast,
      {{1,
        "A: T, B: T -> C: T; T = floats; axis: int?, broadcast: int = 0, consumed_inputs: ints?"},
       {6,
        "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64; axis: int?, broadcast: int = 0"},
       {7, "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64"},
       {13, "A: T, B: T -> C: T; T = floats bfloat16 int32 int64 uint32 uint64"},
       {14, "A: T, B: T -> C: T; T = numeric bfloat16"}}};
  return def;
}

}  // namespace bough::ops
