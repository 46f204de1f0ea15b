// Dense matrix products for MatMul and Gemm: row-major, contiguous operands.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bough/tensor.h"
#include "kernels/gemm_f32.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// numpy's matmul: 1-D operands are promoted to a matrix (and the added dimension removed
// from the result); leading batch dimensions broadcast. Both inputs have one numeric type;
// float16/bfloat16 are computed in float. Throws Error(BadInput) on mismatched shapes.
Tensor matmul(const Tensor& a, const Tensor& b, util::ThreadPool& pool);

// a (m x k) · bᵀ for a 2-D b of shape (n x k), as Gemm's transB: for a few rows of a by dot
// products of rows (b is not transposed), else through matmul.
Tensor matmul_transposed_b(const Tensor& a, const Tensor& b, util::ThreadPool& pool);

// a · B for a float `a` of rank >= 1 (its last dimension B's k, the others batch and rows)
// and B packed once (a constant weight): shape a.shape[:-1] + [n]; plus `bias` (n floats,
// when given) on every row, added in the GEMM's store as gemm_f32 says. Throws
// Error(BadInput) when a is not float or its last dimension is not k.
Tensor matmul_packed(const Tensor& a, const PackedB& b, util::ThreadPool& pool,
                     const float* bias = nullptr);

// The n floats that `bias` adds to every row of a float product of shape (..., n) and rank
// `rank`, when it is one row broadcast over the others: float, of rank at most `rank`, every
// dimension 1 but the last, which is n, or 1 (a single value, repeated n times into
// `repeated`). Null when it is anything else (the caller adds it as a tensor).
const float* row_bias(const Tensor& bias, int64_t n, size_t rank, std::vector<float>& repeated);

// For each batch entry i: c[i] (m x n) = a[a_off[i]] (m x k) · b[b_off[i]] (k x n).
// `c` holds the batches back to back; it is overwritten. Defined for the plain numeric
// types (those of kernels::visit_numeric); float runs the vector kernels of gemm_f32.h.
template <typename T>
void batched_matmul(const T* a, const T* b, T* c, std::span<const int64_t> a_off,
                    std::span<const int64_t> b_off, int64_t m, int64_t k, int64_t n,
                    util::ThreadPool& pool);

}  // namespace bough::kernels
