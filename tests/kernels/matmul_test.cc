// GEMM and MatMul (kernels/matmul.h) against the three-loop product, over random shapes:
// 1-D operands, batch broadcasting, sizes on both sides of the tile widths (32, 8, 4 rows)
// and of the cache blocks (256), and the empty cases (M, N or K of 0). Operands hold small
// integers, so every sum is exact and results compare bit for bit.
#include "kernels/matmul.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "kernels/convert.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

// numpy matmul by definition: promote 1-D operands, broadcast the batch dims, three loops
// per matrix, then drop the promoted dims. Computed in double, returned as float.
Tensor reference_matmul(const Tensor& a, const Tensor& b) {
  Dims as = a.shape(), bs = b.shape();
  const bool vec_a = as.size() == 1, vec_b = bs.size() == 1;
  if (vec_a) as.insert(0, 1);
  if (vec_b) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  Dims batch_a(std::span<const int64_t>(as.data(), as.size() - 2));
  Dims batch_b(std::span<const int64_t>(bs.data(), bs.size() - 2));
  const size_t rank = std::max(batch_a.size(), batch_b.size());
  Dims batch;
  batch.resize(rank, 1);
  for (const Dims* s : {&batch_a, &batch_b})
    for (size_t i = 0; i < s->size(); ++i)
      if ((*s)[i] != 1) batch[rank - s->size() + i] = (*s)[i];
  Dims shape = batch;
  if (!vec_a) shape.push_back(m);
  if (!vec_b) shape.push_back(n);
  Tensor out(ElemType::Float, shape);
  for (int64_t bi = 0; bi < batch.numel(); ++bi) {
    const std::vector<int64_t> c = test::unravel(bi, batch);
    const int64_t ia = test::broadcast_source(c, batch_a), ib = test::broadcast_source(c, batch_b);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t t = 0; t < k; ++t)
          sum += a.get_double((ia * m + i) * k + t) * b.get_double((ib * k + t) * n + j);
        out.data<float>()[(bi * m + i) * n + j] = static_cast<float>(sum);
      }
  }
  return out;
}

Tensor as_float(const Tensor& t) {
  Tensor f(ElemType::Float, t.shape());
  for (int64_t i = 0; i < t.numel(); ++i) f.data<float>()[i] = static_cast<float>(t.get_double(i));
  return f;
}

// Random operand shapes [batch..., m, k] and [batch..., k, n] (or 1-D) with broadcastable
// batch dims. Sizes come from `sizes`, so tests pick which edges to cross.
std::pair<Dims, Dims> random_shapes(Rng& rng, const std::vector<int64_t>& sizes) {
  auto pick = [&] {
    return sizes[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(sizes.size()) - 1))];
  };
  const int64_t m = pick(), k = pick(), n = pick();
  Dims a, b;
  const size_t batch = static_cast<size_t>(rng.uniform(0, 2));
  for (size_t i = 0; i < batch; ++i) {
    const int64_t d = rng.uniform(1, 3);
    const int r = static_cast<int>(rng.uniform(0, 2));  // who has it: both, a only (b 1), b only
    a.push_back(r == 2 ? 1 : d);
    b.push_back(r == 1 ? 1 : d);
  }
  if (rng.chance(0.3))
    b = Dims(std::span<const int64_t>(b.data() + b.size() / 2, b.size() - b.size() / 2));
  a.push_back(m);
  a.push_back(k);
  b.push_back(k);
  b.push_back(n);
  if (rng.chance(0.1)) a = Dims{k};  // 1-D operands
  if (rng.chance(0.1)) b = Dims{k};
  return {a, b};
}

void check(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  SCOPED_TRACE(shape_string(a.shape()) + " x " + shape_string(b.shape()) + " " +
               std::string(elem_name(a.type())));
  const Tensor got = matmul(a, b, pool);
  const Tensor want = reference_matmul(a, b);
  ASSERT_EQ(got.type(), a.type());
  ASSERT_TRUE(test::bitwise_equal(as_float(got), want));
}

// Small odd sizes, around the 8- and 32-column tiles and the 4-row tiles, including 0 and
// 1 everywhere (K = 0 gives zeros, M or N = 0 an empty result).
TEST(MatMul, RandomShapesMatchReference) {
  Rng rng(11);
  util::ThreadPool pool(1);
  const std::vector<int64_t> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 33};
  for (int trial = 0; trial < 300; ++trial) {
    const auto [as, bs] = random_shapes(rng, sizes);
    check(test::small_int_floats(as, rng), test::small_int_floats(bs, rng), pool);
    if (HasFatalFailure()) return;
  }
}

// Past the 256 x 256 cache blocks of K and N, split across threads at item boundaries that
// fall inside a batch and inside a column block.
TEST(MatMul, LargeShapesAcrossBlocksAndThreads) {
  Rng rng(12);
  util::ThreadPool pool(3);
  const std::vector<std::pair<Dims, Dims>> cases = {
      {Dims{5, 300}, Dims{300, 600}},          // K and N past one block
      {Dims{3, 7, 64}, Dims{3, 64, 520}},      // batches of odd row counts, 3 column blocks
      {Dims{2, 1, 9, 257}, Dims{3, 257, 33}},  // broadcast batch, K just past a block
      {Dims{600}, Dims{600, 300}},             // a vector times a matrix
  };
  for (const auto& [as, bs] : cases) {
    check(test::small_int_floats(as, rng, -2, 2), test::small_int_floats(bs, rng, -2, 2), pool);
    if (HasFatalFailure()) return;
  }
}

// The integer and double instantiations, and float16 (computed in float).
TEST(MatMul, OtherElementTypes) {
  Rng rng(13);
  util::ThreadPool pool(1);
  for (ElemType t : {ElemType::Double, ElemType::Int32, ElemType::Int64, ElemType::UInt8,
                     ElemType::Int16, ElemType::Float16}) {
    for (int trial = 0; trial < 20; ++trial) {
      const auto [as, bs] = random_shapes(rng, {0, 1, 3, 5, 9, 33});
      const bool is_unsigned = t == ElemType::UInt8;
      const Tensor fa = test::small_int_floats(as, rng, is_unsigned ? 0 : -3, 3);
      const Tensor fb = test::small_int_floats(bs, rng, is_unsigned ? 0 : -3, 3);
      if (t == ElemType::UInt8 && fa.shape().back() > 9) continue;  // keep sums below 256
      check(cast(fa, t), cast(fb, t), pool);
      if (HasFatalFailure()) return;
    }
  }
}

// Gemm's transB path: a · bᵀ for a 2-D b, by row dot products when a has few rows (<= 8)
// and through a transpose otherwise.
TEST(MatMul, TransposedBMatchesReference) {
  Rng rng(14);
  util::ThreadPool pool(2);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t m = rng.uniform(0, 12), k = rng.uniform(0, 40), n = rng.uniform(0, 40);
    const Tensor a = test::small_int_floats(Dims{m, k}, rng);
    const Tensor b = test::small_int_floats(Dims{n, k}, rng);
    Tensor bt(ElemType::Float, Dims{k, n});
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < n; ++j) bt.data<float>()[i * n + j] = b.data<float>()[j * k + i];
    SCOPED_TRACE(shape_string(a.shape()) + " x " + shape_string(b.shape()) + "^T");
    ASSERT_TRUE(test::bitwise_equal(matmul_transposed_b(a, b, pool), reference_matmul(a, bt)));
  }
  // Enough columns for the dot-product path to split across the pool.
  const Tensor a = test::small_int_floats(Dims{4, 256}, rng);
  const Tensor b = test::small_int_floats(Dims{1024, 256}, rng);
  Tensor bt(ElemType::Float, Dims{256, 1024});
  for (int64_t i = 0; i < 256; ++i)
    for (int64_t j = 0; j < 1024; ++j)
      bt.data<float>()[i * 1024 + j] = b.data<float>()[j * 256 + i];
  EXPECT_TRUE(test::bitwise_equal(matmul_transposed_b(a, b, pool), reference_matmul(a, bt)));
}

// Mismatched inner dims, scalars and mixed types are bad input, not a crash.
TEST(MatMul, BadShapesAreBadInput) {
  util::ThreadPool pool(1);
  const Tensor a = Tensor::zeros(ElemType::Float, Dims{2, 3});
  test::expect_bad_input([&] { matmul(a, Tensor::zeros(ElemType::Float, Dims{2, 3}), pool); });
  test::expect_bad_input([&] { matmul(a, Tensor::zeros(ElemType::Float, Dims{}), pool); });
  test::expect_bad_input([&] { matmul(a, Tensor::zeros(ElemType::Double, Dims{3, 1}), pool); });
  test::expect_bad_input([&] {
    matmul(Tensor::zeros(ElemType::Float, Dims{2, 2, 3}),
           Tensor::zeros(ElemType::Float, Dims{3, 3, 1}), pool);
  });
  test::expect_bad_input([&] {
    matmul_transposed_b(a, Tensor::zeros(ElemType::Float, Dims{4, 2}), pool);
  });
}

}  // namespace
}  // namespace bough::kernels
