// Compiled once per vector target by Highway (foreach_target re-includes this file): each
// copy of the loops below is the compiler's vectorization of ConvEpilogue::each under that
// target's instruction set.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conv_epilogue.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/conv_epilogue.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {

void Epilogue(const ConvEpilogue& epilogue, float* y, int64_t n, const float* bias) {
  if (!bias) {
    epilogue.each(y, n, [](float v) { return v; });
  } else {
    const float b = *bias;
    epilogue.each(y, n, [b](float v) { return v + b; });
  }
  epilogue.apply_affine(y, n);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(Epilogue);

void epilogue_f32(const ConvEpilogue& epilogue, float* y, int64_t n, const float* bias) {
  HWY_DYNAMIC_DISPATCH(Epilogue)(epilogue, y, n, bias);
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
