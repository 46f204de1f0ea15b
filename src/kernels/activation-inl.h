// Relu and Clip on vectors of floats that keep a NaN lane NaN, as the scalar definitions
// (max(x, 0), min(max(x, lo), hi)) do: a vector max or min returns one operand or the other
// for a NaN (x86's returns the second), so they are spelled as compares and selects,
// which are defined for NaN (every compare with it is false). Included by per-target code
// after <hwy/highway.h>, once per target (Highway's re-inclusion guard).
#if defined(BOUGH_KERNELS_ACTIVATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOUGH_KERNELS_ACTIVATION_INL_H_
#undef BOUGH_KERNELS_ACTIVATION_INL_H_
#else
#define BOUGH_KERNELS_ACTIVATION_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {

// max(v, 0), NaN where v is NaN.
template <class D, class V = hwy::HWY_NAMESPACE::Vec<D>>
HWY_INLINE V ReluKeepingNaN(D d, V v) {
  namespace hn = hwy::HWY_NAMESPACE;
  return hn::IfThenElse(hn::Lt(v, hn::Zero(d)), hn::Zero(d), v);
}

// min(max(v, lo), hi), NaN where v is NaN (hi where lo > hi, as min(max(...)) gives).
template <class D, class V = hwy::HWY_NAMESPACE::Vec<D>>
HWY_INLINE V ClipKeepingNaN(D, V v, V lo, V hi) {
  namespace hn = hwy::HWY_NAMESPACE;
  const V low = hn::IfThenElse(hn::Lt(v, lo), lo, v);
  return hn::IfThenElse(hn::Gt(low, hi), hi, low);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BOUGH_KERNELS_ACTIVATION_INL_H_
