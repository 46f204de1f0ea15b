// Compiled once per vector target by Highway (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pool_global.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/pool_global.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four vectors of partial sums (four independent additions in flight: one add's latency
// would otherwise bound the loop), the last partial vector's elements one by one (a masked
// load below AVX2 reads the whole vector, past the end of the plane).
float SumF32(const float* HWY_RESTRICT p, int64_t n) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    s0 = hn::Add(s0, hn::LoadU(d, p + i));
    s1 = hn::Add(s1, hn::LoadU(d, p + i + lanes));
    s2 = hn::Add(s2, hn::LoadU(d, p + i + 2 * lanes));
    s3 = hn::Add(s3, hn::LoadU(d, p + i + 3 * lanes));
  }
  for (; i + lanes <= n; i += lanes) s0 = hn::Add(s0, hn::LoadU(d, p + i));
  float sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
  for (; i < n; ++i) sum += p[i];
  return sum;
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(SumF32);

float sum_f32(const float* p, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumF32)(p, n); }

}  // namespace bough::kernels
#endif  // HWY_ONCE
