// Compiled once per vector target by Highway (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/extreme_f32.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <cmath>

#include "kernels/extreme_f32.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

float ScalarExtreme(const float* x, int64_t n, bool largest) {
  float e = x[0];
  for (int64_t i = 1; i < n; ++i) {
    if (std::isnan(x[i])) return x[i];
    e = largest ? std::max(e, x[i]) : std::min(e, x[i]);
  }
  return e;
}

float ExtremeF32(const float* HWY_RESTRICT x, int64_t n, bool largest) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (n < lanes || std::isnan(x[0])) return ScalarExtreme(x, n, largest);
  // Vector max/min drop NaNs, so they are tracked apart: x - x is NaN for a NaN (and for an
  // infinity), and a sum of those stays NaN. Either sends the run to the scalar loop.
  auto e = hn::LoadU(d, x);
  auto flags = hn::Zero(d);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(d, x + i);
    e = largest ? hn::Max(e, v) : hn::Min(e, v);
    flags = hn::Add(flags, hn::Sub(v, v));
  }
  float r = hn::GetLane(largest ? hn::MaxOfLanes(d, e) : hn::MinOfLanes(d, e));
  if (std::isnan(hn::GetLane(hn::SumOfLanes(d, flags)))) return ScalarExtreme(x, n, largest);
  for (; i < n; ++i) {
    if (std::isnan(x[i])) return x[i];
    r = largest ? std::max(r, x[i]) : std::min(r, x[i]);
  }
  return r;
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(ExtremeF32);

float extreme_f32(const float* x, int64_t n, bool largest) {
  return HWY_DYNAMIC_DISPATCH(ExtremeF32)(x, n, largest);
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
