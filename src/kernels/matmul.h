// Dense matrix products for MatMul and Gemm: row-major, contiguous operands.
#pragma once

#include <cstdint>
#include <span>

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
// and B packed once (a constant weight): shape a.shape[:-1] + [n]. Throws Error(BadInput)
// when a is not float or its last dimension is not k.
Tensor matmul_packed(const Tensor& a, const PackedB& b, util::ThreadPool& pool);

// For each batch entry i: c[i] (m x n) = a[a_off[i]] (m x k) · b[b_off[i]] (k x n).
// `c` holds the batches back to back; it is overwritten. Defined for the plain numeric
// types (those of kernels::visit_numeric); float runs the vector kernels of gemm_f32.h.
template <typename T>
void batched_matmul(const T* a, const T* b, T* c, std::span<const int64_t> a_off,
                    std::span<const int64_t> b_off, int64_t m, int64_t k, int64_t n,
                    util::ThreadPool& pool);

}  // namespace bough::kernels
