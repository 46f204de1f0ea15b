// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// target-independent part (repacking, padding a, splitting over threads, dispatch) is under
// HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/matmul_nbits.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "bough/value.h"
#include "kernels/matmul_nbits.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Bytes of stored values one step of a kernel decodes: two groups (16 lanes) with 512-bit
// vectors where a block holds whole pairs of groups, else one group (8 lanes; SSE4 takes it
// in two halves). Both engines of the step, the 8-lane one on AVX2 and the 16-lane one on
// AVX-512, are bound by decoding: twice the lanes, about twice the speed of one-row products.
int64_t ChunkBytes(int64_t block_bytes) {
  return HWY_MAX_BYTES >= 64 && block_bytes % (2 * kNBitsGroupBytes) == 0 ? 2 * kNBitsGroupBytes
                                                                          : kNBitsGroupBytes;
}

// c[r][n0 + j] for MR rows of a and NR columns of W (rows of the stored weights), over all
// blocks: Σ_kb s Σ (q - z) a. `a` is padded to whole blocks (zeros past k) with row stride
// `lda`. The zero point is taken off each decoded value in float (exact for integer zero
// points), not as s z Σ a afterwards: that would leave the rounding error of s q a where
// q - z is small, 8-bit weights near their zero point losing most of their digits. One row
// of a scales each block's sum once (in `total`); several rows share one scaling of the
// decoded weights instead, which frees the registers of `total` for more columns. A value
// becomes a float without a conversion: its bits under those of 2^23 make the float 2^23 + q,
// and one subtraction of 2^23 + z (exact for integer z) leaves q - z; a float zero point
// (kFloatZero) is taken off after 2^23. A step decodes kChunk bytes: field f of byte t of
// the chunk pairs with a[f * kChunk + t] of the chunk's stretch of a, which matmul_nbits
// has put in that order (PermuteRow).
template <int kChunk, int SB, int MR, int NR, bool kFloatZero>
void Columns(const float* HWY_RESTRICT a, int64_t lda, const NBitsWeights& w, float* HWY_RESTRICT c,
             int64_t ldc, int64_t n0) {
  using D = hn::CappedTag<float, kChunk>;
  using V = hn::Vec<D>;
  constexpr int kFields = 8 / SB;
  constexpr bool kScaleWeights = MR > 1;
  const D d;
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<uint8_t, decltype(du)> db;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const NBitsShape& s = w.shape();
  const int64_t blocks = s.blocks(), block_bytes = s.block * SB / 8, row_bytes = w.row_bytes();
  const auto mask = hn::Set(du, (1u << SB) - 1);
  const auto exponent = hn::Set(du, 0x4B000000u);  // the bits of 2^23
  const V two23 = hn::Set(d, 8388608.0f);
  const uint8_t* zp8 = w.integer_zero_points();
  const float* zpf = w.float_zero_points();
  const uint32_t zp_default = w.default_zero_point();

  // Several rows: the running sums. One row: this block's sums, scaled into `total`.
  V acc[MR][NR];
  V total[NR];
  for (int j = 0; j < NR; ++j) {
    total[j] = hn::Zero(d);
    for (int r = 0; r < MR; ++r) acc[r][j] = hn::Zero(d);
  }
  for (int64_t kb = 0; kb < blocks; ++kb) {
    V sv[NR], zv[NR];
    for (int j = 0; j < NR; ++j) {
      const int64_t at = (n0 + j) * blocks + kb;
      sv[j] = hn::Set(d, w.scales()[at]);
      if constexpr (kFloatZero)
        zv[j] = hn::Set(d, zpf[at]);
      else
        zv[j] = hn::BitCast(d, hn::Set(du, 0x4B000000u | (zp8 ? zp8[at] : zp_default)));
    }
    if constexpr (!kScaleWeights)
      for (int j = 0; j < NR; ++j) acc[0][j] = hn::Zero(d);
    const float* ab = a + kb * s.block;
    for (int64_t g = 0; g < block_bytes; g += kChunk) {
      for (int64_t sub = 0; sub < kChunk; sub += lanes) {  // once unless SSE4
        V q[NR][kFields];
        for (int j = 0; j < NR; ++j) {
          const uint8_t* bytes = w.values() + (n0 + j) * row_bytes + kb * block_bytes + g + sub;
          const auto wide = hn::PromoteTo(du, hn::LoadU(db, bytes));
          for (int f = 0; f < kFields; ++f) {
            const auto field = f == 0 ? (kFields == 1 ? wide : hn::And(wide, mask))
                                      : hn::ShiftRightSame(wide, f * SB);
            q[j][f] = hn::BitCast(d, hn::Or(field, exponent));
            q[j][f] =
                kFloatZero ? hn::Sub(hn::Sub(q[j][f], two23), zv[j]) : hn::Sub(q[j][f], zv[j]);
            if constexpr (kScaleWeights) q[j][f] = hn::Mul(q[j][f], sv[j]);
          }
        }
        const float* ag = ab + g * kFields + sub;
        for (int f = 0; f < kFields; ++f)
          for (int r = 0; r < MR; ++r) {
            const V av = hn::LoadU(d, ag + r * lda + f * kChunk);
            for (int j = 0; j < NR; ++j) acc[r][j] = hn::MulAdd(q[j][f], av, acc[r][j]);
          }
      }
    }
    if constexpr (!kScaleWeights)
      for (int j = 0; j < NR; ++j) total[j] = hn::MulAdd(sv[j], acc[0][j], total[j]);
  }
  for (int j = 0; j < NR; ++j)
    for (int r = 0; r < MR; ++r)
      c[r * ldc + n0 + j] = hn::GetLane(hn::SumOfLanes(d, kScaleWeights ? acc[r][j] : total[j]));
}

// Rows [0, m) of c, columns [n0, n1): column tiles of 16 (a few KiB of W per k, kept in
// cache while every group of rows of a passes over them), groups of up to four rows.
template <int kChunk, int SB, bool kFloatZero>
void RangeBits(const float* a, int64_t lda, int64_t m, const NBitsWeights& w, float* c, int64_t n0,
               int64_t n1) {
  const int64_t ldc = w.shape().n;
  for (int64_t t0 = n0; t0 < n1; t0 += kNBitsColumnUnit) {
    const int64_t t1 = std::min(n1, t0 + kNBitsColumnUnit);
    for (int64_t i = 0; i < m; i += 4) {
      const float* ar = a + i * lda;
      float* cr = c + i * ldc;
      int64_t j = t0;
      switch (std::min<int64_t>(4, m - i)) {
        case 1:  // one row: four columns share each load of a
          for (; j + 4 <= t1; j += 4) Columns<kChunk, SB, 1, 4, kFloatZero>(ar, lda, w, cr, ldc, j);
          for (; j < t1; ++j) Columns<kChunk, SB, 1, 1, kFloatZero>(ar, lda, w, cr, ldc, j);
          break;
        case 2:
          for (; j + 2 <= t1; j += 2) Columns<kChunk, SB, 2, 2, kFloatZero>(ar, lda, w, cr, ldc, j);
          for (; j < t1; ++j) Columns<kChunk, SB, 2, 1, kFloatZero>(ar, lda, w, cr, ldc, j);
          break;
        case 3:
          for (; j + 2 <= t1; j += 2) Columns<kChunk, SB, 3, 2, kFloatZero>(ar, lda, w, cr, ldc, j);
          for (; j < t1; ++j) Columns<kChunk, SB, 3, 1, kFloatZero>(ar, lda, w, cr, ldc, j);
          break;
        default:
          for (; j + 2 <= t1; j += 2) Columns<kChunk, SB, 4, 2, kFloatZero>(ar, lda, w, cr, ldc, j);
          for (; j < t1; ++j) Columns<kChunk, SB, 4, 1, kFloatZero>(ar, lda, w, cr, ldc, j);
      }
    }
  }
}

template <int kChunk>
void RangeChunk(const float* a, int64_t lda, int64_t m, const NBitsWeights& w, float* c, int64_t n0,
                int64_t n1) {
  const bool float_zero = w.float_zero_points() != nullptr;
  if (w.stored_bits() == 8)
    return float_zero ? RangeBits<kChunk, 8, true>(a, lda, m, w, c, n0, n1)
                      : RangeBits<kChunk, 8, false>(a, lda, m, w, c, n0, n1);
  float_zero ? RangeBits<kChunk, 4, true>(a, lda, m, w, c, n0, n1)
             : RangeBits<kChunk, 4, false>(a, lda, m, w, c, n0, n1);
}

int64_t Chunk(const NBitsWeights& w) { return ChunkBytes(w.shape().block * w.stored_bits() / 8); }

void Range(const float* a, int64_t lda, int64_t m, const NBitsWeights& w, float* c, int64_t n0,
           int64_t n1) {
  if (Chunk(w) == 2 * kNBitsGroupBytes)
    return RangeChunk<2 * kNBitsGroupBytes>(a, lda, m, w, c, n0, n1);
  RangeChunk<kNBitsGroupBytes>(a, lda, m, w, c, n0, n1);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(Range);
HWY_EXPORT(Chunk);

namespace {

// The `bits`-bit field `index` of a little-endian bit stream.
int field(const uint8_t* bytes, int64_t index, int64_t bits) {
  const int64_t at = index * bits;
  return (bytes[at / 8] >> (at % 8)) & ((1 << bits) - 1);
}

// A row of a (k values) as `out` (lda values, zeros past k) in the order of the stored
// weights' chunks: a chunk of `chunk` bytes holds `fields` values a byte, its groups of 8
// bytes each 8 * fields consecutive values, value f * 8 + t of a group in field f of byte t.
// The kernels read field f of the chunk's byte t against out[f * chunk + t] of its stretch;
// for one group a chunk that is a's own order.
void permute_row(const float* a, int64_t k, int64_t lda, int64_t chunk, int64_t fields,
                 float* out) {
  const int64_t span = chunk * fields;  // values a chunk covers
  for (int64_t c0 = 0; c0 < lda; c0 += span)
    for (int64_t f = 0; f < fields; ++f)
      for (int64_t t = 0; t < chunk; ++t) {
        const int64_t from = c0 + t / kNBitsGroupBytes * kNBitsGroupBytes * fields +
                             f * kNBitsGroupBytes + t % kNBitsGroupBytes;
        out[c0 + f * chunk + t] = from < k ? a[from] : 0.0f;
      }
}

}  // namespace

void NBitsWeights::prepare(const NBitsShape& shape, const uint8_t* b, const float* scales,
                           const uint8_t* packed_zero_points, const float* float_zero_points) {
  shape_ = shape;
  const int64_t blocks = shape.blocks(), blob = shape.blob(), sb = stored_bits();
  const int64_t fields = 8 / sb, block_bytes = shape.block * sb / 8;
  values_.assign(static_cast<size_t>(shape.n * row_bytes()), 0);
  for (int64_t at = 0; at < shape.n * blocks; ++at) {
    const uint8_t* src = b + at * blob;
    uint8_t* dst = values_.data() + at * block_bytes;
    for (int64_t i = 0; i < shape.block; ++i) {
      // Value i: group i / (8 * fields), field position (i / 8) % fields, byte i % 8.
      const int64_t group = i / (kNBitsGroupBytes * fields);
      const int64_t position = i / kNBitsGroupBytes % fields;
      dst[group * kNBitsGroupBytes + i % kNBitsGroupBytes] |=
          static_cast<uint8_t>(field(src, i, shape.bits) << (position * sb));
    }
  }
  scales_.assign(scales, scales + shape.n * blocks);
  integer_zero_points_.clear();
  float_zero_points_.clear();
  if (float_zero_points)
    float_zero_points_.assign(float_zero_points, float_zero_points + shape.n * blocks);
  if (packed_zero_points) {
    const int64_t zp_row = (blocks * shape.bits + 7) / 8;
    integer_zero_points_.resize(static_cast<size_t>(shape.n * blocks));
    for (int64_t j = 0; j < shape.n; ++j)
      for (int64_t kb = 0; kb < blocks; ++kb)
        integer_zero_points_[static_cast<size_t>(j * blocks + kb)] =
            static_cast<uint8_t>(field(packed_zero_points + j * zp_row, kb, shape.bits));
  }
}

int64_t NBitsWeights::bytes() const {
  return static_cast<int64_t>(values_.size() + scales_.size() * sizeof(float) +
                              integer_zero_points_.size() +
                              float_zero_points_.size() * sizeof(float));
}

void matmul_nbits(const float* a, int64_t m, const NBitsWeights& w, float* c,
                  util::ThreadPool& pool) {
  const NBitsShape& s = w.shape();
  if (m == 0 || s.n == 0) return;
  // a padded with zeros to whole blocks (the padding's stored values then add nothing), in
  // the order the picked kernels read it.
  const int64_t lda = s.blocks() * s.block;
  const int64_t chunk = HWY_DYNAMIC_DISPATCH(Chunk)(w);
  Tensor scratch(ElemType::Float, {m * lda});
  float* padded = scratch.data<float>();
  for (int64_t i = 0; i < m; ++i)
    permute_row(a + i * s.k, s.k, lda, chunk, 8 / w.stored_bits(), padded + i * lda);
  const int64_t units = (s.n + kNBitsColumnUnit - 1) / kNBitsColumnUnit;
  const int64_t threads = pool.threads_for(m * s.n * s.k);
  pool.parallel_for(units, std::max<int64_t>(1, units / threads), [&](int64_t u0, int64_t u1) {
    HWY_DYNAMIC_DISPATCH(Range)
    (padded, lda, m, w, c, u0 * kNBitsColumnUnit, std::min(s.n, u1 * kNBitsColumnUnit));
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
