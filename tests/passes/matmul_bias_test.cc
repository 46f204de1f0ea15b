// A bias Add after a MatMul by a 2-D weight, added in the GEMM's store: matmul-add-bias (A of
// rank 3 or more into a com.microsoft FusedMatMul with bough's own bias input) and
// matmul-add-gemm (a 2-D A into a Gemm), where they fire and where not, and the fused
// sessions against the unfused ones bit for bit (NaN for NaN): the MatMul's sum rounded, then
// the bias added, with NaN and infinities in A, the weight and the bias, bias shapes [N],
// [1, N], [1, 1, N] and [], ranks 2 to 4, a symbolic leading dim that stays symbolic, sums past
// the GEMM's k blocks, at 1, 2 and 4 threads. FusedMatMul's bias where it is not one row, or B
// not constant, is added as a tensor (values by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "bough/session.h"
#include "passes/pass_test_util.h"
#include "reference.h"
#include "same_bits.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Dims64;
using test::f32;
using test::floats_of;
using test::GraphBuilder;

constexpr float kInf = std::numeric_limits<float>::infinity();

// z = Add(MatMul(a, w), bias) (Add's inputs swapped when `swap`), w an initializer (or
// Transpose(wt), wt the initializer, when `transposed`: as PyTorch exports nn.Linear), a and
// the bias inputs.
GraphBuilder bias_model(const Dims64& a_dims, const Tensor& w, const Dims64& bias_dims,
                        bool swap = false, bool transposed = false) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, a_dims).input("bias", ElemType::Float, bias_dims);
  if (transposed) {
    const int64_t k = w.dim(0), n = w.dim(1);
    std::vector<float> wt(static_cast<size_t>(k * n));
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < n; ++j)
        wt[static_cast<size_t>(j * k + i)] = w.data<float>()[i * n + j];
    g.initializer("wt", f32({n, k}, wt));
    g.node("Transpose", {"wt"}, {"w"});
  } else {
    g.initializer("w", w);
  }
  g.node("MatMul", {"a", "w"}, {"m"});
  g.node("Add",
         swap ? std::vector<std::string>{"bias", "m"} : std::vector<std::string>{"m", "bias"},
         {"z"});
  g.output("z", ElemType::Float, {}, false);
  return g;
}

int fused_after(const GraphBuilder& g, const std::string& pass, const std::string& op,
                const std::string& name) {
  const std::string out = test::optimize_file(test::save_scratch(g, name), {pass});
  EXPECT_EQ(test::count_ops(out, "MatMul") + test::count_ops(out, "Add"),
            test::count_ops(out, op) == 1 ? 0 : 2)
      << name;
  return test::count_ops(out, op);
}

TEST(MatMulAddBias, FiresWhereTheBiasIsOneRow) {
  const Tensor w = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  const std::string p = "matmul-add-bias";
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {2}), p, "FusedMatMul", "mab_n"), 1);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {1, 2}), p, "FusedMatMul", "mab_1n"), 1);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {1, 1, 2}, true), p, "FusedMatMul", "mab_11n"), 1);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {}), p, "FusedMatMul", "mab_scalar"), 1);
  EXPECT_EQ(fused_after(bias_model({1, 2, 4, 3}, w, {1, 1, 1, 2}), p, "FusedMatMul", "mab_r4"), 1);
  // A bias that varies along a leading axis, one of more dims than the product (it would
  // widen the result), a 2-D A (matmul-add-gemm's).
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {4, 1}), p, "FusedMatMul", "mab_m1"), 0);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {2, 1, 2}), p, "FusedMatMul", "mab_b12"), 0);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {1, 1, 1, 2}), p, "FusedMatMul", "mab_wide"), 0);
  EXPECT_EQ(fused_after(bias_model({4, 3}, w, {2}), p, "FusedMatMul", "mab_2d"), 0);
  // A bias of a symbolic dim, a product that is also a graph output.
  GraphBuilder symbolic = bias_model({2, 4, 3}, w, {2});
  symbolic.name_input_dim(1, 0, "n");
  EXPECT_EQ(fused_after(symbolic, p, "FusedMatMul", "mab_symbolic"), 0);
  EXPECT_EQ(fused_after(bias_model({2, 4, 3}, w, {2}).output("m", ElemType::Float, {}, false), p,
                        "FusedMatMul", "mab_output"),
            0);
}

// A NaN, a +inf and a -inf at random places of t (the later ones may take an earlier's).
Tensor with_non_finite(Tensor t, test::Rng& rng) {
  float* v = t.data<float>();
  for (float s : {NAN, kInf, -kInf}) v[rng.uniform(0, t.numel() - 1)] = s;
  return t;
}

struct Case {
  Dims64 a_dims;     // as fed
  Dims64 bias_dims;  // of N or 1 last
  int64_t n;
  bool symbolic_batch;  // A's first dim declared as "batch"
  const char* fused_op;
  bool transposed = false;  // the weight as Transpose(wt), folded into the fused node's transB
};

// The case's model at the `all` level (fused: `fused_op` in the session's optimized graph)
// against the `none` level (MatMul, then Add), bit for bit, at 1, 2 and 4 threads.
void expect_fused_matches_unfused(const Case& c, test::Rng& rng, const std::string& name) {
  SCOPED_TRACE(name);
  const int64_t k = c.a_dims.back();
  const Tensor w = with_non_finite(test::random_floats(Dims{k, c.n}, rng), rng);
  const Tensor a =
      with_non_finite(test::random_floats(Dims(std::span<const int64_t>(c.a_dims)), rng), rng);
  const Tensor bias =
      with_non_finite(test::random_floats(Dims(std::span<const int64_t>(c.bias_dims)), rng), rng);
  GraphBuilder g = bias_model(c.a_dims, w, c.bias_dims, rng.chance(0.5), c.transposed);
  if (c.symbolic_batch) g.name_input_dim(0, 0, "batch");
  const std::string path = test::save_scratch(g, name);
  const std::string optimized = test::optimize_file(
      path, {"matmul-add-gemm", "matmul-add-bias", "transpose-gemm", "transpose-matmul"});
  EXPECT_EQ(test::count_ops(optimized, c.fused_op), 1);
  EXPECT_EQ(test::count_ops(optimized, "Transpose"), 0);
  NamedValues feed = {{"a", Value(a)}, {"bias", Value(bias)}};
  for (int threads : {1, 2, 4}) {
    SessionOptions plain, fused;
    plain.optimization = Optimization::none;
    plain.threads = fused.threads = threads;
    Session unfused_session(Model::load(path), plain), fused_session(Model::load(path), fused);
    if (c.symbolic_batch) {  // the output keeps A's symbolic leading dim
      ASSERT_TRUE(fused_session.outputs()[0].rank_known);
      EXPECT_EQ(fused_session.outputs()[0].shape[0].symbol, "batch");
    }
    const Tensor want = unfused_session.run(feed)[0].second.tensor();
    const Tensor got = fused_session.run(feed)[0].second.tensor();
    ASSERT_EQ(got.shape(), want.shape());
    const std::vector<float> gv = floats_of(got), wv = floats_of(want);
    int nan = 0;
    for (size_t i = 0; i < gv.size(); ++i) {
      nan += std::isnan(wv[i]);
      ASSERT_TRUE(test::same_bits_or_nan(gv[i], wv[i]))
          << "at " << i << " on " << threads << " threads: " << gv[i] << " against " << wv[i];
    }
    EXPECT_GT(nan, 0);  // the planted values reach the output
  }
}

TEST(MatMulAddBias, FusedSessionsGiveTheUnfusedBits) {
  test::Rng rng(4646);
  const Case cases[] = {
      {{1, 120, 64}, {661}, 661, false, "FusedMatMul"},
      {{2, 7, 600}, {1, 37}, 37, false, "FusedMatMul"},  // two k blocks
      {{3, 5, 70}, {1, 1, 130}, 130, true, "FusedMatMul"},
      {{2, 3, 4, 40}, {1, 1, 1, 24}, 24, false, "FusedMatMul"},
      {{2, 1, 3, 9}, {1}, 5, false, "FusedMatMul"},
      {{1, 3, 530}, {1, 1, 1}, 70, true, "FusedMatMul"},
      {{1, 2, 64}, {}, 6, false, "FusedMatMul"},
      {{2, 6, 50}, {1, 40}, 40, true, "FusedMatMul", true},
      {{120, 64}, {661}, 661, false, "Gemm"},
      {{9, 700}, {1, 33}, 33, false, "Gemm"},
      {{2, 20}, {1}, 8, false, "Gemm"},
      {{11, 30}, {19}, 19, false, "Gemm", true},
  };
  int i = 0;
  for (const Case& c : cases) {
    expect_fused_matches_unfused(c, rng, "mab_bits_" + std::to_string(i++));
    if (HasFatalFailure()) return;
  }
}

// FusedMatMul(A, B, bias) as bough defines its third input: the product plus the bias
// broadcast unidirectionally, also where the bias is not one row or B is not constant.
// A = [[1, 2], [3, 4]] (1 x 2 x 2), B = [[1, 0], [1, 1]]: A·B = [[3, 2], [7, 4]].
TEST(MatMulAddBias, FusedMatMulAddsABiasOfAnyBroadcast) {
  const Tensor a = f32({1, 2, 2}, {1, 2, 3, 4}), b = f32({2, 2}, {1, 0, 1, 1});
  const struct {
    Tensor bias;
    std::vector<float> want;
  } cases[] = {
      {f32({2, 1}, {10, 20}), {13, 12, 27, 24}},  // one value per row
      {f32({1, 2, 2}, {1, 2, 3, 4}), {4, 4, 10, 8}},
      {f32({2}, {-3, kInf}), {0, kInf, 4, kInf}},
  };
  for (const auto& c : cases)
    for (bool constant_b : {true, false}) {
      GraphBuilder g("main");
      g.input("a", ElemType::Float, {1, 2, 2}).input("bias", ElemType::Float, {}, false);
      if (constant_b)
        g.initializer("b", b);
      else
        g.input("b", ElemType::Float, {2, 2});
      g.node("FusedMatMul", {"a", "b", "bias"}, {"y"}).set_domain("com.microsoft");
      g.output("y", ElemType::Float, {}, false);
      onnxpb::ModelProto m = test::make_model(g);
      auto* ms = m.add_opset_import();
      ms->set_domain("com.microsoft");
      ms->set_version(1);
      const std::string path =
          test::save_model(m, test::scratch_dir("mab_any"), "fused_matmul_bias.onnx");
      SessionOptions options;
      options.optimization = Optimization::none;
      Session s(Model::load(path), options);
      NamedValues feed = {{"a", Value(a)}, {"bias", Value(c.bias)}};
      if (!constant_b) feed.emplace_back("b", Value(b));
      EXPECT_EQ(floats_of(s.run(feed)[0].second.tensor()), c.want);
    }
}

}  // namespace
}  // namespace bough
