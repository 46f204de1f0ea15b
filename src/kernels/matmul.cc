#include "kernels/matmul.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "bough/error.h"
#include "kernels/broadcast.h"
#include "kernels/convert.h"
#include "kernels/dispatch.h"

namespace bough::kernels {

namespace {

// Tile sizes: a kKBlock x kNBlock block of B stays in cache while the rows stream by.
constexpr int64_t kKBlock = 128;
constexpr int64_t kNBlock = 512;

// Rows [r0, r1) of one product. The inner loop runs along a row of B and of C (i-k-j
// order), so it is contiguous and vectorizes.
template <typename T>
void matmul_rows(const T* a, const T* b, T* c, int64_t r0, int64_t r1, int64_t k, int64_t n) {
  std::memset(static_cast<void*>(c + r0 * n), 0, sizeof(T) * static_cast<size_t>((r1 - r0) * n));
  for (int64_t j0 = 0; j0 < n; j0 += kNBlock) {
    const int64_t jn = std::min(kNBlock, n - j0);
    for (int64_t k0 = 0; k0 < k; k0 += kKBlock) {
      const int64_t kn = std::min(kKBlock, k - k0);
      for (int64_t i = r0; i < r1; ++i) {
        T* __restrict crow = c + i * n + j0;
        const T* arow = a + i * k + k0;
        for (int64_t kk = 0; kk < kn; ++kk) {
          const T av = arow[kk];
          const T* __restrict brow = b + (k0 + kk) * n + j0;
          for (int64_t j = 0; j < jn; ++j) crow[j] += av * brow[j];
        }
      }
    }
  }
}

// Element offsets of each matrix of `shape` (rank >= 2) for every index of the broadcast
// batch shape `batch`; broadcast dimensions repeat the same matrix.
std::vector<int64_t> batch_offsets(const Dims& batch, const Dims& shape) {
  const size_t rank = batch.size();
  const size_t own = shape.size() - 2;
  std::vector<int64_t> stride(rank, 0);
  int64_t s = shape[own] * shape[own + 1];
  for (size_t j = own; j-- > 0;) {
    if (shape[j] != 1) stride[j + rank - own] = s;
    s *= shape[j];
  }
  std::vector<int64_t> offsets(static_cast<size_t>(batch.numel()));
  for (size_t i = 0; i < offsets.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i), off = 0;
    for (size_t d = rank; d-- > 0;) {
      off += (rest % batch[d]) * stride[d];
      rest /= batch[d];
    }
    offsets[i] = off;
  }
  return offsets;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, exec::ThreadPool& pool) {
  if (a.type() != b.type())
    fail(ErrorKind::BadInput, "", "MatMul inputs have different element types " +
                                      std::string(elem_name(a.type())) + " and " +
                                      std::string(elem_name(b.type())));
  const ElemType t = a.type();
  if (t == ElemType::Float16 || t == ElemType::BFloat16)
    return cast(matmul(to_float(a), to_float(b), pool), t);
  if (a.rank() == 0 || b.rank() == 0) fail(ErrorKind::BadInput, "", "MatMul inputs must not be scalars");
  Dims as = a.shape(), bs = b.shape();
  const bool vec_a = as.size() == 1, vec_b = bs.size() == 1;
  if (vec_a) as.insert(0, 1);
  if (vec_b) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    fail(ErrorKind::BadInput, "", "MatMul shapes " + shape_string(a.shape()) + " and " +
                                      shape_string(b.shape()) + " do not match");
  const Dims batch_a(std::span<const int64_t>(as.data(), as.size() - 2));
  const Dims batch_b(std::span<const int64_t>(bs.data(), bs.size() - 2));
  const Dims batch = broadcast_shape(batch_a, batch_b);
  Dims out_shape = batch;
  if (!vec_a) out_shape.push_back(m);
  if (!vec_b) out_shape.push_back(n);
  Tensor out(t, out_shape);
  const std::vector<int64_t> a_off = batch_offsets(batch, as), b_off = batch_offsets(batch, bs);
  visit_numeric(t, "MatMul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    batched_matmul<T>(a.data<T>(), b.data<T>(), out.data<T>(), a_off, b_off, m, k, n, pool);
  });
  return out;
}

template <typename T>
void batched_matmul(const T* a, const T* b, T* c, std::span<const int64_t> a_off,
                    std::span<const int64_t> b_off, int64_t m, int64_t k, int64_t n,
                    exec::ThreadPool& pool) {
  const int64_t batches = static_cast<int64_t>(a_off.size());
  const int64_t rows = batches * m;
  if (rows == 0 || n == 0) return;
  // Work items are rows of the stacked outputs; a chunk should hold enough multiply-adds.
  const int64_t per_row = std::max<int64_t>(1, k * n);
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / per_row);
  pool.parallel_for(rows, grain, [&](int64_t s, int64_t e) {
    while (s < e) {
      const int64_t bi = s / m;
      const int64_t r0 = s % m;
      const int64_t r1 = std::min(m, r0 + (e - s));
      matmul_rows(a + a_off[bi], b + b_off[bi], c + bi * m * n, r0, r1, k, n);
      s += r1 - r0;
    }
  });
}

#define BOUGH_MATMUL(T)                                                                     \
  template void batched_matmul<T>(const T*, const T*, T*, std::span<const int64_t>,        \
                                  std::span<const int64_t>, int64_t, int64_t, int64_t, \
                                  exec::ThreadPool&);
BOUGH_MATMUL(float)
BOUGH_MATMUL(double)
BOUGH_MATMUL(int32_t)
BOUGH_MATMUL(int64_t)
BOUGH_MATMUL(uint32_t)
BOUGH_MATMUL(uint64_t)
BOUGH_MATMUL(int8_t)
BOUGH_MATMUL(int16_t)
BOUGH_MATMUL(uint8_t)
BOUGH_MATMUL(uint16_t)
#undef BOUGH_MATMUL

}  // namespace bough::kernels
