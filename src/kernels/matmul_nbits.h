// Products with block-quantized weights (com.microsoft MatMulNBits): c = a · Wᵀ where W
// (n x k) is stored as 2/4/8-bit integers q in blocks of `block` values along k, each block
// with a scale and a zero point: W[j][t] = (q - zero_point) * scale. The weights stay packed
// (about bits/32 of the float size); the vector kernels (Highway, picked at run time) decode
// them as they stream through, once per group of up to four rows of a, so a one-row product
// reads each weight byte once.
#pragma once

#include <cstdint>
#include <vector>

#include "util/thread_pool.h"

namespace bough::kernels {

// Bytes of one group of stored values (see NBitsWeights): one load gives a vector of them.
inline constexpr int64_t kNBitsGroupBytes = 8;
// Output columns a parallel chunk starts on (a multiple of every kernel's column count).
inline constexpr int64_t kNBitsColumnUnit = 16;

// The quantization: k and n, bits per value (2, 4 or 8), values per block (a power of 2,
// at least 16). A block is `blob()` bytes, value i in the `bits`-bit field at bit i * bits,
// low bits first; k need not be a multiple of the block (the last one is padded).
struct NBitsShape {
  int64_t k = 0, n = 0, bits = 4, block = 32;
  int64_t blocks() const { return (k + block - 1) / block; }
  int64_t blob() const { return block * bits / 8; }
};

// W in the layout the kernels read, built once for a constant weight. Each block's fields
// are regrouped so that one load of 8 bytes yields 8 consecutive values per field position:
// byte j of a group of 8 * (8 / stored_bits) values holds values j, j + 8, ... in its
// fields. 2-bit values are stored as 4-bit fields (the kernels decode 4 and 8 bits only).
class NBitsWeights {
 public:
  // b: n * blocks * blob bytes; scales: n * blocks floats. Zero points: `packed_zero_points`
  // (n rows of ceil(blocks * bits / 8) bytes of `bits`-bit fields), or `float_zero_points`
  // (n * blocks), or neither (2^(bits-1)). Reuses this object's memory.
  void prepare(const NBitsShape& shape, const uint8_t* b, const float* scales,
               const uint8_t* packed_zero_points, const float* float_zero_points);

  const NBitsShape& shape() const { return shape_; }
  int64_t stored_bits() const { return shape_.bits == 8 ? 8 : 4; }
  // Bytes of one row of W as stored (its blocks back to back).
  int64_t row_bytes() const { return shape_.blocks() * shape_.block * stored_bits() / 8; }
  const uint8_t* values() const { return values_.data(); }
  const float* scales() const { return scales_.data(); }
  // Block zero points: one of the two is set, or neither (default_zero_point()).
  const uint8_t* integer_zero_points() const {
    return integer_zero_points_.empty() ? nullptr : integer_zero_points_.data();
  }
  const float* float_zero_points() const {
    return float_zero_points_.empty() ? nullptr : float_zero_points_.data();
  }
  uint32_t default_zero_point() const { return 1u << (shape_.bits - 1); }
  // Memory held: values, scales and zero points.
  int64_t bytes() const;

 private:
  NBitsShape shape_;
  std::vector<uint8_t> values_;
  std::vector<float> scales_;
  std::vector<uint8_t> integer_zero_points_;
  std::vector<float> float_zero_points_;
};

// c (m x n, row-major) = a (m x k, row-major) · Wᵀ, overwriting c. Splits n over `pool`
// once the product is large enough for every thread.
void matmul_nbits(const float* a, int64_t m, const NBitsWeights& w, float* c,
                  util::ThreadPool& pool);

}  // namespace bough::kernels
