// kernels::softmax_blocks_f32, compiled once per vector target by Highway (foreach_target
// re-includes this file): softmax_rows.h's functions are all inlined into each copy.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax_f32.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/softmax_rows.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {

void SoftmaxBlocks(bool log, const float* x, float* y, int64_t o0, int64_t o1, int64_t n,
                   int64_t inner) {
  if (log)
    softmax_blocks_here<true>(x, y, o0, o1, n, inner);
  else
    softmax_blocks_here<false>(x, y, o0, o1, n, inner);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(SoftmaxBlocks);

void softmax_blocks_f32(bool log, const float* x, float* y, int64_t o0, int64_t o1, int64_t n,
                        int64_t inner) {
  HWY_DYNAMIC_DISPATCH(SoftmaxBlocks)(log, x, y, o0, o1, n, inner);
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
