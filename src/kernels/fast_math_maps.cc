// Compiled once per vector target by Highway (foreach_target re-includes this file): each
// copy of the loops below is the compiler's vectorization of kernels/fast_math.h under that
// target's instruction set.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/fast_math_maps.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/fast_math_maps.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {

// One loop per function, each vectorized on its own (fast_apply with a constant `fn`
// folds to the one function).
template <FastFn kFn>
HWY_INLINE void Map(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = fast_apply(kFn, x[i]);
}

void FastMap(FastFn fn, const float* x, float* y, int64_t n) {
  switch (fn) {
    case FastFn::Exp:
      return Map<FastFn::Exp>(x, y, n);
    case FastFn::Log:
      return Map<FastFn::Log>(x, y, n);
    case FastFn::Tanh:
      return Map<FastFn::Tanh>(x, y, n);
    case FastFn::Sigmoid:
      return Map<FastFn::Sigmoid>(x, y, n);
    case FastFn::Erf:
      return Map<FastFn::Erf>(x, y, n);
    case FastFn::Gelu:
      return Map<FastFn::Gelu>(x, y, n);
    case FastFn::GeluTanh:
      return Map<FastFn::GeluTanh>(x, y, n);
  }
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(FastMap);

void fast_map(FastFn fn, const float* x, float* y, int64_t n) {
  HWY_DYNAMIC_DISPATCH(FastMap)(fn, x, y, n);
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
