// Compiled once per vector target by Highway (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/find_beyond.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/find_beyond.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

int64_t FirstBeyond(const float* HWY_RESTRICT x, int64_t n, float bound, bool above) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto b = hn::Set(d, bound);
  int64_t i = 0;
  // "Not within" rather than "beyond", so that NaN on either side counts as past the bound.
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(d, x + i);
    const auto within = above ? hn::Le(v, b) : hn::Ge(v, b);
    const intptr_t first = hn::FindFirstTrue(d, hn::Not(within));
    if (first >= 0) return i + first;
  }
  for (; i < n; ++i)
    if (above ? !(x[i] <= bound) : !(x[i] >= bound)) return i;
  return n;
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(FirstBeyond);

int64_t first_beyond(const float* x, int64_t n, float bound, bool above) {
  return HWY_DYNAMIC_DISPATCH(FirstBeyond)(x, n, bound, above);
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
