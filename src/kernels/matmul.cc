#include "kernels/matmul.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <vector>

#include "bough/error.h"
#include "kernels/broadcast.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/layout.h"
#include "kernels/through_float.h"

namespace bough::kernels {

namespace {

// Cache blocking: a kKBlock x kNBlock block of B is reused by every row of the range.
constexpr int64_t kKBlock = 256;
constexpr int64_t kNBlock = 256;
// Up to this many rows of a, a · bᵀ is computed as dot products of rows instead of
// transposing b first.
constexpr int64_t kFewRows = 8;

// c[R x C] += a[R x kn] · b[kn x C] (leading dimensions lda, ldb, ldc). R and C are
// compile-time constants, so the compiler keeps the tile in vector registers and vectorizes
// the loop over the columns without a scalar remainder.
template <typename T, int R, int C>
void tile(const T* a, int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc, int64_t kn) {
  T acc[R][C] = {};
  for (int64_t kk = 0; kk < kn; ++kk) {
    const T* brow = b + kk * ldb;
    for (int r = 0; r < R; ++r) {
      const T av = a[r * lda + kk];
      for (int j = 0; j < C; ++j) acc[r][j] += av * brow[j];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < C; ++j) c[r * ldc + j] += acc[r][j];
}

// Columns [0, n) of R rows: wide tiles, then narrow ones, then single columns.
template <typename T, int R>
void tile_row(const T* a, int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc, int64_t kn,
              int64_t n) {
  int64_t j = 0;
  for (; j + 32 <= n; j += 32) tile<T, R, 32>(a, lda, b + j, ldb, c + j, ldc, kn);
  for (; j + 8 <= n; j += 8) tile<T, R, 8>(a, lda, b + j, ldb, c + j, ldc, kn);
  for (; j < n; ++j) tile<T, R, 1>(a, lda, b + j, ldb, c + j, ldc, kn);
}

// Rows [r0, r1), columns [j0, j1) of c (m x n) = a (m x k) · b (k x n), all row-major;
// that block of c is overwritten.
template <typename T>
void matmul_block(const T* a, const T* b, T* c, int64_t r0, int64_t r1, int64_t j0, int64_t j1,
                  int64_t k, int64_t n) {
  const int64_t jn = j1 - j0;
  for (int64_t i = r0; i < r1; ++i) std::fill(c + i * n + j0, c + i * n + j1, T(0));
  for (int64_t k0 = 0; k0 < k; k0 += kKBlock) {
    const int64_t kn = std::min(kKBlock, k - k0);
    const T* bb = b + k0 * n + j0;
    int64_t i = r0;
    for (; i + 4 <= r1; i += 4) tile_row<T, 4>(a + i * k + k0, k, bb, n, c + i * n + j0, n, kn, jn);
    for (; i < r1; ++i) tile_row<T, 1>(a + i * k + k0, k, bb, n, c + i * n + j0, n, kn, jn);
  }
}

// Sum of x[i] * y[i], in kLanes independent partial sums so the loop vectorizes.
template <typename T>
T dot(const T* x, const T* y, int64_t k) {
  constexpr int kLanes = 16;
  T lane[kLanes] = {};
  int64_t t = 0;
  for (; t + kLanes <= k; t += kLanes)
    for (int l = 0; l < kLanes; ++l) lane[l] += x[t + l] * y[t + l];
  T sum = 0;
  for (int l = 0; l < kLanes; ++l) sum += lane[l];
  for (; t < k; ++t) sum += x[t] * y[t];
  return sum;
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

// matmul of two tensors of one type that is computed as it is (not float16/bfloat16).
Tensor matmul_as_is(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  if (a.rank() == 0 || b.rank() == 0)
    fail(ErrorKind::BadInput, "", "MatMul inputs must not be scalars");
  Dims as = a.shape(), bs = b.shape();
  const bool vec_a = as.size() == 1, vec_b = bs.size() == 1;
  if (vec_a) as.insert(0, 1);
  if (vec_b) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    fail(ErrorKind::BadInput, "",
         "MatMul shapes " + shape_string(a.shape()) + " and " + shape_string(b.shape()) +
             " do not match");
  const Dims batch_a(std::span<const int64_t>(as.data(), as.size() - 2));
  const Dims batch_b(std::span<const int64_t>(bs.data(), bs.size() - 2));
  const Dims batch = broadcast_shape(batch_a, batch_b);
  Dims out_shape = batch;
  if (!vec_a) out_shape.push_back(m);
  if (!vec_b) out_shape.push_back(n);
  const ElemType t = a.type();
  Tensor out(t, out_shape);
  const std::vector<int64_t> a_off = batch_offsets(batch, as), b_off = batch_offsets(batch, bs);
  visit_numeric(t, "MatMul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    batched_matmul<T>(a.data<T>(), b.data<T>(), out.data<T>(), a_off, b_off, m, k, n, pool);
  });
  return out;
}

// a · bᵀ for 2-D a of at most kFewRows rows and 2-D b of a's type (not float16/bfloat16), as
// dot products of rows.
Tensor rows_dot_rows(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  const int64_t m = a.dim(0), k = a.dim(1), n = b.dim(0);
  if (b.dim(1) != k)
    fail(ErrorKind::BadInput, "",
         "shapes " + shape_string(a.shape()) + " and transposed " + shape_string(b.shape()) +
             " do not match");
  Tensor out(a.type(), Dims{m, n});
  visit_numeric(a.type(), "MatMul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* pc = out.data<T>();
    // A scalar multiply-add here costs about what an element of a float loop does.
    const int64_t grain = util::grain_for(k * m * kElementWork);
    pool.parallel_for(n, grain, [&](int64_t s, int64_t e) {
      for (int64_t j = s; j < e; ++j)
        for (int64_t i = 0; i < m; ++i) pc[i * n + j] = dot(pa + i * k, pb + j * k, k);
    });
  });
  return out;
}

// Calls use(packed) with b (k x n, or its n x k transpose) packed into this thread's scratch
// buffer: a fresh allocation per call would cost page faults and clearing every time. A
// buffer past kKeepScratchFloats is freed after the call instead of kept for the thread's
// life.
template <typename F>
auto with_packed_b(const float* b, int64_t k, int64_t n, bool transposed, F&& use) {
  constexpr int64_t kKeepScratchFloats = int64_t{4} << 20;  // 16 MiB
  thread_local PackedB scratch;
  scratch.pack(b, k, n, transposed);
  struct Release {
    ~Release() {
      if (scratch.k() * scratch.panels() * scratch.width() > kKeepScratchFloats)
        scratch = PackedB();
    }
  } release;
  return use(static_cast<const PackedB&>(scratch));
}

// The float batched product: one product over the stacked rows when every batch of a
// follows the last and b is shared (a weight broadcast over a batch), else one per batch,
// the batches split over the pool when each is too small to split itself.
void batched_matmul_f32(const float* a, const float* b, float* c, std::span<const int64_t> a_off,
                        std::span<const int64_t> b_off, int64_t m, int64_t k, int64_t n,
                        util::ThreadPool& pool) {
  const int64_t batches = static_cast<int64_t>(a_off.size());
  bool stacked = true;
  for (int64_t i = 0; i < batches && stacked; ++i)
    stacked = a_off[i] == i * m * k && b_off[i] == b_off[0];
  if (stacked) {
    const int64_t rows = batches * m;
    if (rows <= kFewRowsF32)
      return gemm_f32_few_rows(a, k, b + b_off[0], n, c, n, rows, k, n, pool);
    return with_packed_b(b + b_off[0], k, n, false,
                         [&](const PackedB& packed) { gemm_f32(a, k, packed, c, n, rows, pool); });
  }
  auto one = [&](int64_t i, util::ThreadPool& p) {
    if (m <= kFewRowsF32)
      return gemm_f32_few_rows(a + a_off[i], k, b + b_off[i], n, c + i * m * n, n, m, k, n, p);
    // The scratch is per thread, so batches may run side by side.
    with_packed_b(b + b_off[i], k, n, false, [&](const PackedB& packed) {
      gemm_f32(a + a_off[i], k, packed, c + i * m * n, n, m, p);
    });
  };
  // Batches of fewer multiply-adds than this each run on one thread, side by side.
  constexpr int64_t kSplitBatch = int64_t{1} << 22;
  if (m * n * k >= kSplitBatch) {
    for (int64_t i = 0; i < batches; ++i) one(i, pool);
    return;
  }
  const int64_t grain = util::grain_for(m * n * k);
  pool.parallel_for(batches, grain, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) one(i, pool);  // nested: the inner product runs inline
  });
}

}  // namespace

Tensor matmul_packed(const Tensor& a, const PackedB& b, util::ThreadPool& pool, const float* bias) {
  if (a.type() != ElemType::Float || a.rank() == 0 || a.shape().back() != b.k())
    fail(ErrorKind::BadInput, "",
         "MatMul's A of type " + std::string(elem_name(a.type())) + " and shape " +
             shape_string(a.shape()) + " does not match its float B of " + std::to_string(b.k()) +
             " rows");
  Dims out_shape = a.shape();
  out_shape[out_shape.size() - 1] = b.n();
  Tensor out(ElemType::Float, out_shape);
  if (b.k() == 0 && !bias) {
    std::fill(out.data<float>(), out.data<float>() + out.numel(), 0.0f);
    return out;
  }
  // Rows of a: with k = 0 as many as the output has (a holds none of them).
  const int64_t rows = b.k() == 0 ? out.numel() / std::max<int64_t>(1, b.n()) : a.numel() / b.k();
  gemm_f32(a.data<float>(), b.k(), b, out.data<float>(), b.n(), rows, pool, bias);
  return out;
}

const float* row_bias(const Tensor& bias, int64_t n, size_t rank, std::vector<float>& repeated) {
  if (bias.type() != ElemType::Float || bias.rank() > rank) return nullptr;
  const Dims& dims = bias.shape();
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    if (dims[i] != 1) return nullptr;
  if (bias.numel() == n) return bias.data<float>();
  if (bias.numel() != 1) return nullptr;
  repeated.assign(static_cast<size_t>(n), bias.data<float>()[0]);
  return repeated.data();
}

Tensor matmul(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  if (a.type() != b.type())
    fail(ErrorKind::BadInput, "",
         "MatMul inputs have different element types " + std::string(elem_name(a.type())) +
             " and " + std::string(elem_name(b.type())));
  return through_float([&](const Tensor& x, const Tensor& y) { return matmul_as_is(x, y, pool); },
                       a, b);
}

Tensor matmul_transposed_b(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  if (a.rank() == 2 && b.rank() == 2 && a.type() == ElemType::Float &&
      b.type() == ElemType::Float && a.dim(0) > kFewRows && a.dim(1) == b.dim(1)) {
    return with_packed_b(b.data<float>(), b.dim(1), b.dim(0), true,
                         [&](const PackedB& packed) { return matmul_packed(a, packed, pool); });
  }
  if (a.rank() != 2 || b.rank() != 2 || a.type() != b.type() || a.dim(0) > kFewRows) {
    const std::array<int64_t, 2> perm{1, 0};
    return matmul(a, b.rank() == 2 ? transpose(b, perm) : b, pool);
  }
  return through_float([&](const Tensor& x, const Tensor& y) { return rows_dot_rows(x, y, pool); },
                       a, b);
}

template <typename T>
void batched_matmul(const T* a, const T* b, T* c, std::span<const int64_t> a_off,
                    std::span<const int64_t> b_off, int64_t m, int64_t k, int64_t n,
                    util::ThreadPool& pool) {
  const int64_t batches = static_cast<int64_t>(a_off.size());
  const int64_t rows = batches * m;
  if (rows == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>)
    return batched_matmul_f32(a, b, c, a_off, b_off, m, k, n, pool);
  // Work items are (column block, row of the stacked outputs), column block outermost, so a
  // thread's run of items shares blocks of b; a chunk should hold enough multiply-adds.
  const int64_t jblocks = (n + kNBlock - 1) / kNBlock;
  const int64_t per_item = std::max<int64_t>(1, k * std::min(n, kNBlock));
  const int64_t grain = util::grain_for(per_item * kElementWork);  // scalar loops, as above
  pool.parallel_for(rows * jblocks, grain, [&](int64_t s, int64_t e) {
    while (s < e) {
      const int64_t jb = s / rows;
      const int64_t j0 = jb * kNBlock, j1 = std::min(n, j0 + kNBlock);
      const int64_t q1 = std::min(rows, s % rows + (e - s));
      for (int64_t q = s % rows; q < q1;) {  // rows of one column block, batch by batch
        const int64_t bi = q / m, i0 = q % m;
        const int64_t i1 = std::min(m, i0 + (q1 - q));
        matmul_block(a + a_off[bi], b + b_off[bi], c + bi * m * n, i0, i1, j0, j1, k, n);
        q += i1 - i0;
      }
      s += q1 - s % rows;
    }
  });
}

#define BOUGH_MATMUL(T)                                                                \
  template void batched_matmul<T>(const T*, const T*, T*, std::span<const int64_t>,    \
                                  std::span<const int64_t>, int64_t, int64_t, int64_t, \
                                  util::ThreadPool&);
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
