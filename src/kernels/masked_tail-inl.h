// Whether a run's last partial vector may be read and written with Highway's MaskedLoad and
// BlendedStore: AVX2's and AVX-512's masked instructions touch no memory past the run's end;
// below AVX2 Highway's masked load reads the whole vector and its masked store writes it
// back, so a kernel takes those elements one by one there. Included by per-target code after
// <hwy/highway.h>, once per target (Highway's re-inclusion guard).
#if defined(BOUGH_KERNELS_MASKED_TAIL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BOUGH_KERNELS_MASKED_TAIL_INL_H_
#undef BOUGH_KERNELS_MASKED_TAIL_INL_H_
#else
#define BOUGH_KERNELS_MASKED_TAIL_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
inline constexpr bool kMaskedTail = true;
#else
inline constexpr bool kMaskedTail = false;
#endif

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BOUGH_KERNELS_MASKED_TAIL_INL_H_
