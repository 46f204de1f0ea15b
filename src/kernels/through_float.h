// float16 and bfloat16 computed in float. Kernels have no half-precision arithmetic: they
// widen such inputs to float (exactly), compute, and round the result back to the input's
// type (to nearest, ties to even, as Cast does). Every other type is computed as it is.
#pragma once

#include <array>
#include <cstddef>

#include "kernels/convert.h"

namespace bough::kernels {

inline bool is_narrow_float(ElemType t) {
  return t == ElemType::Float16 || t == ElemType::BFloat16;
}

// float, double, float16 or bfloat16: the types a float kernel serves, the last two through
// float.
inline bool is_computed_float(ElemType t) {
  return t == ElemType::Float || t == ElemType::Double || is_narrow_float(t);
}

// x in float when it is float16/bfloat16, else x itself (sharing its buffer).
inline Tensor widen(const Tensor& x) { return is_narrow_float(x.type()) ? to_float(x) : x; }

// y, computed from widened inputs, rounded back to `type` when that is float16/bfloat16.
inline Tensor narrow_to(const Tensor& y, ElemType type) {
  return is_narrow_float(type) ? cast(y, type) : y;
}

namespace through_float_detail {

// An optional input passed by pointer, converted to float: converts to the pointer the
// computation expects (null when the input is absent). Lives until the call returns.
struct OptionalInFloat {
  Tensor t;
  operator const Tensor*() const { return t.defined() ? &t : nullptr; }
};

inline Tensor widened(const Tensor& t) { return to_float(t); }
inline OptionalInFloat widened(const Tensor* t) { return {t ? to_float(*t) : Tensor()}; }

inline Tensor rounded(const Tensor& y, ElemType type) { return y.defined() ? cast(y, type) : y; }
template <size_t N>
std::array<Tensor, N> rounded(std::array<Tensor, N> ys, ElemType type) {
  for (Tensor& y : ys) y = rounded(y, type);
  return ys;
}

}  // namespace through_float_detail

// compute(x, more...) for a float16/bfloat16 x: compute runs on x and on every one of `more`
// converted to float (a `const Tensor*` may be null: an absent optional input), and its
// result is rounded back to x's type. The result is a Tensor, or a std::array of them for
// several outputs (an undefined one stays undefined). Out of line, so that its temporaries
// cost the caller's common path nothing.
template <typename F, typename... More>
[[gnu::noinline]] auto computed_in_float(F&& compute, const Tensor& x, const More&... more) {
  using through_float_detail::widened;
  return through_float_detail::rounded(compute(to_float(x), widened(more)...), x.type());
}

// computed_in_float for a computation that writes its result into its last argument; the
// result goes into `out` (reinit'ed, so a buffer kept from the last run is reused).
template <typename F, typename... More>
[[gnu::noinline]] void computed_in_float_into(Tensor& out, F&& compute, const Tensor& x,
                                              const More&... more) {
  using through_float_detail::widened;
  Tensor y;
  compute(to_float(x), widened(more)..., y);
  cast_into(y, x.type(), out);
}

// compute(x, more...) for x of any type; float16/bfloat16 go through computed_in_float.
// compute then runs for float from two places, so the compiler may keep the code it calls
// out of line. Where a call or two more per run matter (elementwise operators, which run on
// small tensors in loops), give the float16 path a float-only computation of its own and
// call computed_in_float for it directly, as ops/elementwise.h does.
template <typename F, typename... More>
[[gnu::always_inline]] inline auto through_float(F&& compute, const Tensor& x,
                                                 const More&... more) {
  if (is_narrow_float(x.type())) [[unlikely]]
    return computed_in_float(compute, x, more...);
  return compute(x, more...);
}

}  // namespace bough::kernels
