// Single-precision GEMM with B packed once, its vector kernels picked at run time for the
// CPU (Highway's dynamic dispatch): AVX-512 kernels on AVX-512 machines, AVX2 ones
// elsewhere, from one binary built for x86-64-v3 (or any baseline).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "util/thread_pool.h"

namespace bough::kernels {

// B (k x n) in the layout the picked kernels read: blocks of kc rows of k, each split in
// panels of `width` columns (the last zero-padded), a panel's rows back to back. Built once
// for a constant weight and reused by every product.
class PackedB {
 public:
  PackedB() = default;
  // b is k x n row-major, or n x k row-major when `transposed` (then B = bᵀ).
  PackedB(const float* b, int64_t k, int64_t n, bool transposed);
  // The same into this object's buffer, reusing its memory (for a scratch PackedB).
  void pack(const float* b, int64_t k, int64_t n, bool transposed);
  // Sizes this object for a k x n B that the caller writes in place (a conv tile's im2col):
  // element (kk, j) goes to row(kk) + j / width() * panel_step(kk) + j % width(). The last
  // panel's padding is zeroed here.
  void reshape(int64_t k, int64_t n);
  float* row(int64_t kk) {
    const int64_t k0 = kk / kc_ * kc_;
    return data_.data() + k0 * panels() * width_ + (kk - k0) * width_;
  }
  int64_t panel_step(int64_t kk) const { return std::min(kc_, k_ - kk / kc_ * kc_) * width_; }

  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  int64_t width() const { return width_; }
  int64_t kc() const { return kc_; }
  int64_t panels() const { return (n_ + width_ - 1) / width_; }
  const float* data() const { return data_.data(); }
  float* data() { return data_.data(); }

 private:
  int64_t k_ = 0, n_ = 0, width_ = 0, kc_ = 0;
  std::vector<float> data_;
};

// The work of an m x k by k x n float product in util::kMinWorkPerThread's units: its
// multiply-adds, or the bytes of B when there are more of those. A product of a few rows
// is bound by streaming B (4 bytes read for each row's multiply-add), and counting it in
// multiply-adds kept a 1x256 by 256x4096 product (65 µs, a decoder's vocabulary
// projection) on one thread.
inline int64_t gemm_work(int64_t m, int64_t k, int64_t n) {
  return k * n * std::max<int64_t>(m, sizeof(float));
}

// c (m x n, row stride ldc) = a (m x k, row stride lda) · B, overwriting c; then + bias[j]
// on every row when `bias` (n floats) is given, added to each finished sum in its store:
// bit for bit the product rounded, then the bias added, as MatMul then Add. Splits the work
// over `pool` along the larger of m and n once there is enough of it for every thread.
void gemm_f32(const float* a, int64_t lda, const PackedB& b, float* c, int64_t ldc, int64_t m,
              util::ThreadPool& pool, const float* bias = nullptr);

// c (m x n) = a (m x k) · b (k x n), all row-major and unpacked, for m of at most
// kFewRowsF32 rows: streams b once, row by row, without packing it.
inline constexpr int64_t kFewRowsF32 = 4;
void gemm_f32_few_rows(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                       int64_t ldc, int64_t m, int64_t k, int64_t n, util::ThreadPool& pool);

// The kernel set picked for this CPU: "avx512", "avx2", "sse4" or "scalar" (for
// `bough --version` and the test that checks the pick against the CPU's own report).
std::string_view gemm_kernel_set();

}  // namespace bough::kernels
