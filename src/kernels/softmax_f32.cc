// kernels::softmax_blocks_f32, compiled once per vector target by Highway (foreach_target
// re-includes this file): softmax_rows.h's functions are all inlined into each copy, the
// passes over contiguous rows written with Highway's operations (VectorRows below).
//
// Written as plain loops (softmax_detail::ScalarRows), GCC left the maximum scalar (std::max
// is not commutative for NaN, so it keeps the order) and kept the exp loop's sixteen partial
// sums on the stack, an add waiting on a store each iteration; with fast_exp's two-factor
// scaling that made Softmax over 6625 classes 2.4x ONNX Runtime's time. The exponentials
// below are fast_exp's, bit for bit; their sums are added in another order (two vectors of
// partial sums), so a result may differ from the plain loops' by the sums' rounding.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax_f32.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernels/fast_math.h"
#include "kernels/masked_tail-inl.h"
#include "kernels/softmax_rows.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// p 2^n for an integer-valued n in [-150, 0] (as float and as int32), rounded once: AVX-512's
// scalef; elsewhere 2^n as two factors, each a normal float, as kernels::fast_exp does (the
// first product is exact, the second rounds into a denormal when it has to).
HWY_INLINE V ScaleByPow2(V p, V n, hn::Vec<hn::RebindToSigned<D>> ni) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  (void)ni;
  return V{_mm512_scalef_ps(p.raw, n.raw)};
#else
  (void)n;
  const D d;
  const hn::RebindToSigned<D> di;
  const auto bias = hn::Set(di, 127);
  const auto n1 = hn::ShiftRight<1>(ni);
  const V f1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
  const V f2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::Sub(ni, n1), bias)));
  return hn::Mul(hn::Mul(p, f1), f2);
#endif
}

// kernels::fast_exp(x) for x <= 0 or NaN (a row's elements less their maximum), the same
// operations on a vector, so the same results (at most 1.1 ulp from e^x): without the
// clamp at 89 that only positive arguments need, and with the scaling by 2^n in one
// instruction on AVX-512.
HWY_INLINE V ExpNonPositive(V x) {
  const D d;
  const hn::RebindToSigned<D> di;
  // e^-104 rounds to 0. x86's vector max returns its second operand when either is NaN, so
  // there a NaN x stays NaN through every step below (scalef, or the product with the two
  // factors) without a blend at the end.
  const V xc = hn::Max(hn::Set(d, -104.0f), x);
  const V round = hn::Set(d, 0x1.8p23f);
  const V t = hn::MulAdd(xc, hn::Set(d, 1.44269504088896341f), round);
  const V n = hn::Sub(t, round);
  const auto ni = hn::Sub(hn::BitCast(di, t), hn::BitCast(di, round));
  V r = hn::MulAdd(n, hn::Set(d, -0.693359375f), xc);
  r = hn::MulAdd(n, hn::Set(d, 2.12194440e-4f), r);
  V q = hn::Set(d, 1.9875691500E-4f);
  q = hn::MulAdd(q, r, hn::Set(d, 1.3981999507E-3f));
  q = hn::MulAdd(q, r, hn::Set(d, 8.3334519073E-3f));
  q = hn::MulAdd(q, r, hn::Set(d, 4.1665795894E-2f));
  q = hn::MulAdd(q, r, hn::Set(d, 1.6666665459E-1f));
  q = hn::MulAdd(q, r, hn::Set(d, 5.0000001201E-1f));
  const V p = hn::Add(hn::MulAdd(q, hn::Mul(r, r), r), hn::Set(d, 1.0f));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
  return ScaleByPow2(p, n, ni);
#else
  // NaN as NaN, whichever operand Max kept.
  return hn::IfThenElse(hn::IsNaN(x), x, ScaleByPow2(p, n, ni));
#endif
}

// softmax_rows.h's passes over a run of a row, two vectors a step (two independent chains
// of maxima and of sums), the last partial vector masked (kMaskedTail) or element by element
// with the scalar fast_exp (the same results). Rows of a few vectors (an attention map's 120
// keys) spent most of their time in those scalar elements.
struct VectorRows {
  static float max_of(const float* HWY_RESTRICT x, int64_t n) {
    const D d;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    V m0 = hn::Set(d, -std::numeric_limits<float>::infinity()), m1 = m0;
    int64_t i = 0;
    for (; i + 2 * lanes <= n; i += 2 * lanes) {
      m0 = hn::Max(m0, hn::LoadU(d, x + i));
      m1 = hn::Max(m1, hn::LoadU(d, x + i + lanes));
    }
    for (; i + lanes <= n; i += lanes) m0 = hn::Max(m0, hn::LoadU(d, x + i));
    if (kMaskedTail && i < n) {
      const auto m = hn::FirstN(d, static_cast<size_t>(n - i));
      m1 = hn::Max(m1, hn::IfThenElse(m, hn::MaskedLoad(m, d, x + i), m1));
      i = n;
    }
    float mx = hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
    for (; i < n; ++i) mx = std::max(mx, x[i]);
    return mx;
  }

  template <bool Store>
  static float sum_exp(const float* HWY_RESTRICT x, float* HWY_RESTRICT y, int64_t n, float shift) {
    const D d;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    const V s = hn::Set(d, shift);
    V sum0 = hn::Zero(d), sum1 = sum0;
    int64_t i = 0;
    for (; i + 2 * lanes <= n; i += 2 * lanes) {
      const V e0 = ExpNonPositive(hn::Sub(hn::LoadU(d, x + i), s));
      const V e1 = ExpNonPositive(hn::Sub(hn::LoadU(d, x + i + lanes), s));
      if constexpr (Store) {
        hn::StoreU(e0, d, y + i);
        hn::StoreU(e1, d, y + i + lanes);
      }
      sum0 = hn::Add(sum0, e0);
      sum1 = hn::Add(sum1, e1);
    }
    for (; i + lanes <= n; i += lanes) {
      const V e = ExpNonPositive(hn::Sub(hn::LoadU(d, x + i), s));
      if constexpr (Store) hn::StoreU(e, d, y + i);
      sum0 = hn::Add(sum0, e);
    }
    if (kMaskedTail && i < n) {  // the lanes past the row add 0, whatever they loaded
      const auto m = hn::FirstN(d, static_cast<size_t>(n - i));
      const V e = hn::IfThenElseZero(m, ExpNonPositive(hn::Sub(hn::MaskedLoad(m, d, x + i), s)));
      if constexpr (Store) hn::BlendedStore(e, m, d, y + i);
      sum1 = hn::Add(sum1, e);
      i = n;
    }
    float sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(sum0, sum1)));
    for (; i < n; ++i) {
      const float e = fast_exp(x[i] - shift);
      if constexpr (Store) y[i] = e;
      sum += e;
    }
    return sum;
  }

  static void scale(float* HWY_RESTRICT y, int64_t n, float f) {
    const D d;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    const V fv = hn::Set(d, f);
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), fv), d, y + i);
    if (kMaskedTail && i < n) {
      const auto m = hn::FirstN(d, static_cast<size_t>(n - i));
      hn::BlendedStore(hn::Mul(hn::MaskedLoad(m, d, y + i), fv), m, d, y + i);
      i = n;
    }
    for (; i < n; ++i) y[i] *= f;
  }
};

void SoftmaxBlocks(bool log, const float* x, float* y, int64_t o0, int64_t o1, int64_t n,
                   int64_t inner) {
  if (log)
    softmax_blocks_here<true, VectorRows>(x, y, o0, o1, n, inner);
  else
    softmax_blocks_here<false, VectorRows>(x, y, o0, o1, n, inner);
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
