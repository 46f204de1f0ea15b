// Mod: the remainder of A / B, multidirectional broadcasting. With fmod=0 (integers only)
// the result takes the divisor's sign, as Python's %; with fmod=1 it takes the dividend's,
// as C's fmod. An integer remainder by zero is an error rather than a crash.
#include <cmath>
#include <type_traits>

#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mod_op {

[[noreturn, gnu::cold]] void zero_divisor() {
  fail(ErrorKind::BadInput, "", "integer modulo by zero");
}

// Remainder with the dividend's sign. x % -1 is 0 (and must not trap for the minimum).
struct FModFn {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmod(a, b);
    } else {
      if (b == 0) [[unlikely]]
        zero_divisor();  // integer division does not vectorize anyway
      if constexpr (std::is_signed_v<T>)
        return b == -1 ? T(0) : static_cast<T>(a % b);
      else
        return static_cast<T>(a % b);
    }
  }
};

// Remainder with the divisor's sign.
struct ModFn {
  template <typename T>
  T operator()(T a, T b) const {
    T r = FModFn{}(a, b);
    if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>)
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  }
};

void compute_fmod(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  arith<FModFn>(a, b, out, pool, "Mod");
}

void compute_mod(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  if (is_float_type(a.type()))
    fail(ErrorKind::BadInput, "", "Mod of floating-point inputs requires fmod=1");
  arith<ModFn>(a, b, out, pool, "Mod");
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t fmod = ctx.attr_int("fmod", 0);
  if (fmod != 0 && fmod != 1) ctx.invalid("fmod must be 0 or 1");
  return fmod ? make_binary<compute_fmod>(ctx) : make_binary<compute_mod>(ctx);
}

constexpr SignatureText kRows[] = {{10, "A: T, B: T -> C: T; T = numeric; fmod: int = 0"},
                                   {13, "A: T, B: T -> C: T; T = numeric bfloat16; fmod: int = 0"}};

}  // namespace mod_op
}  // namespace

OpDef def_Mod() {
  using namespace mod_op;
  return def_from_rows("", "Mod", make, infer_broadcast, kRows);
}

}  // namespace bough::ops
