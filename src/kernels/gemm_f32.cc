// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// target-independent part (packing, splitting over threads, dispatch) is under HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/gemm_f32.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "kernels/gemm_f32.h"
#include "kernels/masked_tail-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// Rows of a register tile two vectors wide: 2 * kRows accumulators, two vectors of b and one
// broadcast of a must fit the register file (32 vectors with AVX-512, 16 below).
constexpr int kRows = HWY_MAX_BYTES >= 64 ? 8 : 6;
// Rows of a that pass over one k block of the panels together: 192 rows (a multiple of both
// tile heights) of kc = 512 floats are 384 KiB, which L2 (1 MiB on Zen 4) keeps beside the
// panel; all 1024 rows of a 1024³ product did not, and came from L3 once per panel.
constexpr int64_t kBlockRows = 192;

int64_t VectorLanes() { return static_cast<int64_t>(hn::Lanes(D())); }
int64_t TileRowCount() { return kRows; }

const char* KernelSet() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return "avx512";
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return "avx2";
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_SSE4
  return "sse4";
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_SSSE3
  return "ssse3";
#else
  return "scalar";
#endif
}

// StoreCols for fewer columns than a vector holds: masked (kMaskedTail; the 120 columns of
// an attention's Q·Kᵀ end in one, which went through the buffer 8 floats at a time) or
// through a buffer. Out of line, so that the tiles' stores of whole vectors stay small:
// inlined into every store of the tiles, the masked path made the 120x120 by 120x8 product
// (all whole vectors) 15 % slower.
template <class DT>
HWY_NOINLINE void StorePartial(DT d, hn::Vec<DT> v, float* HWY_RESTRICT c, int64_t cols, bool add,
                               const float* HWY_RESTRICT bias) {
  if constexpr (kMaskedTail) {  // the lanes past `cols` untouched
    const auto m = hn::FirstN(d, static_cast<size_t>(cols));
    hn::Vec<DT> sum = add ? hn::Add(hn::MaskedLoad(m, d, c), v) : v;
    if (bias) sum = hn::Add(sum, hn::MaskedLoad(m, d, bias));
    hn::BlendedStore(sum, m, d, c);
  } else {
    HWY_ALIGN float tmp[HWY_MAX_BYTES / sizeof(float)];
    hn::Store(v, d, tmp);
    for (int64_t j = 0; j < cols; ++j) {
      const float sum = add ? c[j] + tmp[j] : tmp[j];
      c[j] = bias ? sum + bias[j] : sum;
    }
  }
}

// v (plus what c holds when `add`) into the first `cols` floats of c, then plus `bias`'s
// when there is one (the last k block's store): the product's sum rounded, then the bias
// added and rounded, as a MatMul followed by an Add computes it.
template <class DT>
HWY_INLINE void StoreCols(DT d, hn::Vec<DT> v, float* HWY_RESTRICT c, int64_t cols, bool add,
                          const float* HWY_RESTRICT bias) {
  if (cols < static_cast<int64_t>(hn::Lanes(d))) return StorePartial(d, v, c, cols, add, bias);
  hn::Vec<DT> sum = add ? hn::Add(hn::LoadU(d, c), v) : v;
  if (bias) sum = hn::Add(sum, hn::LoadU(d, bias));
  hn::StoreU(sum, d, c);
}

// c[MR rows x cols] (+)= a[MR x kc] · the P consecutive panels at b, each NV vectors wide
// with its kc rows back to back and the next panel `panel_step` floats further, then + the
// tile's columns of `bias` when not null. The accumulators stay in registers over the whole
// kc loop. DT is the vector type: full width, or narrower for panels of fewer columns.
template <class DT, int MR, int NV, int P>
HWY_INLINE void Tile(const float* HWY_RESTRICT a, int64_t lda, const float* HWY_RESTRICT b,
                     int64_t panel_step, int64_t kc, float* HWY_RESTRICT c, int64_t ldc,
                     int64_t cols, bool add, const float* HWY_RESTRICT bias) {
  const DT d;
  using VT = hn::Vec<DT>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  constexpr int W = NV * P;
  VT acc[MR][W];
  for (int r = 0; r < MR; ++r)
    for (int w = 0; w < W; ++w) acc[r][w] = hn::Zero(d);
  const int64_t row = NV * lanes;
  for (int64_t kk = 0; kk < kc; ++kk) {
    VT bv[W];
    for (int p = 0; p < P; ++p)
      for (int v = 0; v < NV; ++v)
        bv[p * NV + v] = hn::LoadU(d, b + p * panel_step + kk * row + v * lanes);
    for (int r = 0; r < MR; ++r) {
      const VT av = hn::Set(d, a[r * lda + kk]);
      for (int w = 0; w < W; ++w) acc[r][w] = hn::MulAdd(av, bv[w], acc[r][w]);
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int w = 0; w < W && w * lanes < cols; ++w)
      StoreCols(d, acc[r][w], c + r * ldc + w * lanes, cols - w * lanes, add,
                bias ? bias + w * lanes : nullptr);
}

// Tile for a run-time row count of 1..MR.
template <class DT, int NV, int P, int MR>
HWY_INLINE void TileRows(int64_t rows, const float* a, int64_t lda, const float* b,
                         int64_t panel_step, int64_t kc, float* c, int64_t ldc, int64_t cols,
                         bool add, const float* bias) {
  if constexpr (MR > 1) {
    if (rows < MR)
      return TileRows<DT, NV, P, MR - 1>(rows, a, lda, b, panel_step, kc, c, ldc, cols, add, bias);
  }
  Tile<DT, MR, NV, P>(a, lda, b, panel_step, kc, c, ldc, cols, add, bias);
}

// Panels one vector of DT wide (b has fewer columns than a full vector holds): row tiles
// twice as high, as there are half as many accumulators per row.
template <class DT>
void NarrowRange(const float* HWY_RESTRICT a, int64_t lda, const float* HWY_RESTRICT bp, int64_t kn,
                 float* HWY_RESTRICT c, int64_t ldc, int64_t i0, int64_t i1, int64_t cols, bool add,
                 const float* HWY_RESTRICT bias) {
  for (int64_t i = i0; i < i1; i += 2 * kRows)
    TileRows<DT, 1, 1, 2 * kRows>(std::min<int64_t>(2 * kRows, i1 - i), a + i * lda, lda, bp, 0, kn,
                                  c + i * ldc, ldc, cols, add, bias);
}

// Rows [i0, i1) and panels [p0, p1) of c = a · packed b (+ bias, n floats, when not null).
// Loops k blocks, then panels, then rows, so a panel's block stays in L1 while every row of
// the range passes over it. The bias is added in the last k block's store, after the whole
// sum.
void GemmRange(const float* HWY_RESTRICT a, int64_t lda, const PackedB& pb, float* HWY_RESTRICT c,
               int64_t ldc, int64_t i0, int64_t i1, int64_t p0, int64_t p1,
               const float* HWY_RESTRICT bias) {
  const int64_t lanes = VectorLanes();
  const int64_t width = pb.width(), k = pb.k(), n = pb.n(), padded = pb.panels() * width;
  const bool few_rows = i1 - i0 <= 3;  // two panels at once, for more independent sums
  for (int64_t k0 = 0; k0 < k; k0 += pb.kc()) {
    const int64_t kn = std::min(pb.kc(), k - k0);
    const float* block = pb.data() + k0 * padded;
    const bool add = k0 > 0;
    const float* last_bias = k0 + kn == k ? bias : nullptr;
    if (width < 2 * lanes) {  // a single panel of at most one vector
      if (width == 4) {
        NarrowRange<hn::CappedTag<float, 4>>(a + k0, lda, block, kn, c, ldc, i0, i1, n, add,
                                             last_bias);
      } else if (width == 8) {
        NarrowRange<hn::CappedTag<float, 8>>(a + k0, lda, block, kn, c, ldc, i0, i1, n, add,
                                             last_bias);
      } else {
        NarrowRange<D>(a + k0, lda, block, kn, c, ldc, i0, i1, n, add, last_bias);
      }
      continue;
    }
    // Rows in blocks of kBlockRows, so that the block of a that every panel passes over
    // stays in L2 (all 1024 rows of a 1024³ product did not, and came from L3 once per panel).
    for (int64_t ib = i0; ib < i1; ib += kBlockRows) {
      const int64_t ie = std::min(i1, ib + kBlockRows);
      for (int64_t p = p0; p < p1;) {
        const float* bp = block + p * kn * width;
        const int64_t j = p * width;
        float* cp = c + j;
        const float* bj = last_bias ? last_bias + j : nullptr;
        if (few_rows && p + 1 < p1) {
          TileRows<D, 2, 2, 3>(ie - ib, a + ib * lda + k0, lda, bp, kn * width, kn, cp + ib * ldc,
                               ldc, std::min(2 * width, n - j), add, bj);
          p += 2;
        } else {
          for (int64_t i = ib; i < ie; i += kRows)
            TileRows<D, 2, 1, kRows>(std::min<int64_t>(kRows, ie - i), a + i * lda + k0, lda, bp, 0,
                                     kn, cp + i * ldc, ldc, std::min(width, n - j), add, bj);
          p += 1;
        }
      }
    }
  }
}

// c (m x [j0, j1)) = a (m x k) · b (k x n) for m <= kFewRowsF32, b unpacked: strips of S
// vectors of columns, each summed over all of k in registers. One row takes strips of eight
// vectors: with four, its four sums wait on the FMA latency at every step of k (the LSTM's
// one-row recurrent product ran at half speed).
template <int M>
void FewRowsM(const float* HWY_RESTRICT a, int64_t lda, const float* HWY_RESTRICT b, int64_t ldb,
              float* HWY_RESTRICT c, int64_t ldc, int64_t k, int64_t j0, int64_t j1) {
  constexpr int S = M == 1 ? 8 : 4;
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = j0;
  for (; j + S * lanes <= j1; j += S * lanes) {
    V acc[M][S];
    for (int r = 0; r < M; ++r)
      for (int w = 0; w < S; ++w) acc[r][w] = hn::Zero(d);
    for (int64_t kk = 0; kk < k; ++kk) {
      const float* brow = b + kk * ldb + j;
      V bv[S];
      for (int w = 0; w < S; ++w) bv[w] = hn::LoadU(d, brow + w * lanes);
      for (int r = 0; r < M; ++r) {
        const V av = hn::Set(d, a[r * lda + kk]);
        for (int w = 0; w < S; ++w) acc[r][w] = hn::MulAdd(av, bv[w], acc[r][w]);
      }
    }
    for (int r = 0; r < M; ++r)
      for (int w = 0; w < S; ++w) hn::StoreU(acc[r][w], d, c + r * ldc + j + w * lanes);
  }
  for (; j + lanes <= j1; j += lanes) {
    V acc[M];
    for (int r = 0; r < M; ++r) acc[r] = hn::Zero(d);
    for (int64_t kk = 0; kk < k; ++kk) {
      const V bv = hn::LoadU(d, b + kk * ldb + j);
      for (int r = 0; r < M; ++r) acc[r] = hn::MulAdd(hn::Set(d, a[r * lda + kk]), bv, acc[r]);
    }
    for (int r = 0; r < M; ++r) hn::StoreU(acc[r], d, c + r * ldc + j);
  }
  for (; j < j1; ++j)  // fewer columns than a vector: scalar
    for (int r = 0; r < M; ++r) {
      float s = 0;
      for (int64_t kk = 0; kk < k; ++kk) s += a[r * lda + kk] * b[kk * ldb + j];
      c[r * ldc + j] = s;
    }
}

void FewRows(const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc,
             int64_t m, int64_t k, int64_t j0, int64_t j1) {
  switch (m) {
    case 1:
      return FewRowsM<1>(a, lda, b, ldb, c, ldc, k, j0, j1);
    case 2:
      return FewRowsM<2>(a, lda, b, ldb, c, ldc, k, j0, j1);
    case 3:
      return FewRowsM<3>(a, lda, b, ldb, c, ldc, k, j0, j1);
    default:
      return FewRowsM<4>(a, lda, b, ldb, c, ldc, k, j0, j1);
  }
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(VectorLanes);
HWY_EXPORT(TileRowCount);
HWY_EXPORT(KernelSet);
HWY_EXPORT(GemmRange);
HWY_EXPORT(FewRows);

namespace {

// A panel's block of kc rows: 64 KiB, which L2 keeps while every row tile of a row block
// passes over it, at most 512 rows of k. Each k block adds its product into c, so c is read
// and written once per block: kc = 128 (a block that fit L1) passed over c eight times in a
// 1024³ product, and kc = 512 took 23 % less CPU time there (and 0–8 % less on 256³,
// 16×512·512 and 1×768·768, the same on 64³), measured on the Zen 4 of docs/gemm.md.
constexpr int64_t kPanelBlockFloats = 16384;
constexpr int64_t kMaxKc = 512;

int64_t ceil_div(int64_t x, int64_t y) { return (x + y - 1) / y; }

}  // namespace

PackedB::PackedB(const float* b, int64_t k, int64_t n, bool transposed) {
  pack(b, k, n, transposed);
}

void PackedB::reshape(int64_t k, int64_t n) {
  k_ = k;
  n_ = n;
  // Narrow b: one vector of the fewest lanes (at least 4) that holds a row; else two vectors.
  const int64_t lanes = HWY_DYNAMIC_DISPATCH(VectorLanes)();
  width_ = 2 * lanes;
  for (int64_t w = std::min<int64_t>(4, lanes); w <= lanes; w *= 2)
    if (n <= w) {
      width_ = w;
      break;
    }
  kc_ = std::clamp<int64_t>(kPanelBlockFloats / width_, 1, kMaxKc);
  data_.resize(static_cast<size_t>(std::max<int64_t>(1, k * panels() * width_)));
  const int64_t used = n - (panels() - 1) * width_;  // columns of the last panel
  if (used < width_)
    for (int64_t kk = 0; kk < k; ++kk) {
      float* last = row(kk) + (panels() - 1) * panel_step(kk);
      std::fill(last + used, last + width_, 0.0f);
    }
}

void PackedB::pack(const float* b, int64_t k, int64_t n, bool transposed) {
  reshape(k, n);
  const int64_t panels = this->panels(), padded = panels * width_;
  for (int64_t k0 = 0; k0 < k; k0 += kc_) {
    const int64_t kn = std::min(kc_, k - k0);
    for (int64_t p = 0; p < panels; ++p) {
      float* dst = data_.data() + k0 * padded + p * kn * width_;
      const int64_t j0 = p * width_, cols = std::min(width_, n - j0);
      for (int64_t kk = 0; kk < kn; ++kk) {  // the padding was zeroed by reshape
        float* line = dst + kk * width_;
        if (transposed) {
          for (int64_t j = 0; j < cols; ++j) line[j] = b[(j0 + j) * k + k0 + kk];
        } else {
          std::memcpy(line, b + (k0 + kk) * n + j0, static_cast<size_t>(cols) * sizeof(float));
        }
      }
    }
  }
}

namespace {

// gemm_f32 on the calling thread.
void gemm_f32_serial(const float* a, int64_t lda, const PackedB& b, float* c, int64_t ldc,
                     int64_t m, const float* bias) {
  if (m == 0 || b.n() == 0) return;
  if (b.k() == 0) {  // an empty sum, 0, then the bias added to it
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < b.n(); ++j) c[i * ldc + j] = bias ? 0.0f + bias[j] : 0.0f;
    return;
  }
  HWY_DYNAMIC_DISPATCH(GemmRange)(a, lda, b, c, ldc, 0, m, 0, b.panels(), bias);
}

}  // namespace

void gemm_f32(const float* a, int64_t lda, const PackedB& b, float* c, int64_t ldc, int64_t m,
              util::ThreadPool& pool, const float* bias) {
  const int64_t threads = pool.threads_for(gemm_work(m, b.k(), b.n()));
  if (threads == 1 || b.k() == 0) return gemm_f32_serial(a, lda, b, c, ldc, m, bias);
  const int64_t panels = b.panels();
  if (m >= b.n()) {  // rows
    // In whole register tiles of this target (8 rows with AVX-512, 6 below): in units of
    // 24, both tiles' multiple, 64 rows split 24 + 40.
    const int64_t unit = HWY_DYNAMIC_DISPATCH(TileRowCount)(), units = ceil_div(m, unit);
    pool.parallel_for(units, std::max<int64_t>(1, units / threads), [&](int64_t s, int64_t e) {
      HWY_DYNAMIC_DISPATCH(GemmRange)
      (a, lda, b, c, ldc, s * unit, std::min(m, e * unit), 0, panels, bias);
    });
  } else {  // panels, in pairs so that few-row products keep theirs together
    const int64_t units = ceil_div(panels, 2);
    pool.parallel_for(units, std::max<int64_t>(1, units / threads), [&](int64_t s, int64_t e) {
      HWY_DYNAMIC_DISPATCH(GemmRange)
      (a, lda, b, c, ldc, 0, m, 2 * s, std::min(panels, 2 * e), bias);
    });
  }
}

void gemm_f32_few_rows(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                       int64_t ldc, int64_t m, int64_t k, int64_t n, util::ThreadPool& pool) {
  if (m == 0 || n == 0) return;
  const int64_t threads = pool.threads_for(gemm_work(m, k, n));
  const int64_t strip = 8 * HWY_DYNAMIC_DISPATCH(VectorLanes)();  // FewRowsM<1>'s strip
  const int64_t units = ceil_div(n, strip);
  pool.parallel_for(units, std::max<int64_t>(1, units / threads), [&](int64_t s, int64_t e) {
    HWY_DYNAMIC_DISPATCH(FewRows)(a, lda, b, ldb, c, ldc, m, k, s * strip, std::min(n, e * strip));
  });
}

std::string_view gemm_kernel_set() { return HWY_DYNAMIC_DISPATCH(KernelSet)(); }

}  // namespace bough::kernels
#endif  // HWY_ONCE
