// The fusion passes (matmul-add-gemm, transpose-gemm, merge-transposes): golden before/after text,
// the cases where a pattern must not fire, and fused models against unfused ones on random shapes
// and inputs at 1 and 2 threads, with expected values from a reference loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "bough/session.h"
#include "passes/pass_test_util.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

const Tensor kX = f32({2, 3}, {1, 2, 3, 4, 5, 6});
const Tensor kW = f32({3, 2}, {1, 0, 0, 1, 1, 1});
const Tensor kBias = f32({2}, {10, 20});
// x · W = [[4, 5], [10, 11]] worked out by hand; + bias = [[14, 25], [20, 31]].
const std::vector<float> kProduct = {4, 5, 10, 11};
const std::vector<float> kWithBias = {14, 25, 20, 31};

// Fused: z = Add(MatMul(x, W), b) in main, and the same (Add's inputs swapped) inside the
// If's then-branch, reading x, W and b through captures. Not fused: m2, which Neg also
// reads; m3, a graph output; m4 + c4, whose bias [2, 1] broadcasts on the first axis.
GraphBuilder matmul_add_model() {
  GraphBuilder then_g("then_g");
  then_g.node("MatMul", {"x", "w"}, {"tm"});
  then_g.node("Add", {"b", "tm"}, {"tz"});
  then_g.output("tz", ElemType::Float, {2, 2});
  GraphBuilder else_g("else_g");
  else_g.node("MatMul", {"x", "w"}, {"em"});
  else_g.output("em", ElemType::Float, {2, 2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3}).input("p", ElemType::Bool);
  g.initializer("w", kW).initializer("b", kBias).initializer("c4", f32({2, 1}, {100, 200}));
  g.node("MatMul", {"x", "w"}, {"m1"}, "mm1");
  g.node("Add", {"m1", "b"}, {"z1"});
  g.node("MatMul", {"x", "w"}, {"m2"});
  g.node("Add", {"m2", "b"}, {"z2"});
  g.node("Neg", {"m2"}, {"n2"});
  g.node("MatMul", {"x", "w"}, {"m3"});
  g.node("Add", {"m3", "b"}, {"z3"});
  g.node("MatMul", {"x", "w"}, {"m4"});
  g.node("Add", {"m4", "c4"}, {"z4"});
  g.node("If", {"p"}, {"r"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  for (const char* out : {"z1", "z2", "n2", "m3", "z3", "z4", "r"})
    g.output(out, ElemType::Float, {2, 2});
  return g;
}

TEST(PassGolden, MatMulAddGemm) {
  std::string out = test::check_golden(matmul_add_model(), "matmul-add-gemm",
                                       test::report_line("matmul-add-gemm", 2));
  EXPECT_EQ(test::count_ops(out, "Gemm"), 2);
  EXPECT_EQ(test::count_ops(out, "MatMul"), 4);  // m2, m3, m4 and the else-branch's
  auto y = test::run_plain(out, {{"x", kX}, {"p", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(y[0]), kWithBias);
  EXPECT_EQ(floats_of(y[1]), kWithBias);
  EXPECT_EQ(floats_of(y[2]), (std::vector<float>{-4, -5, -10, -11}));
  EXPECT_EQ(floats_of(y[3]), kProduct);
  EXPECT_EQ(floats_of(y[4]), kWithBias);
  EXPECT_EQ(floats_of(y[5]), (std::vector<float>{104, 105, 210, 211}));
  EXPECT_EQ(floats_of(y[6]), kWithBias);
}

// Folded: MatMul(x, Transpose(vt)) becomes Gemm(x, vt, transB=1); Gemm(x, Transpose(vt), b)
// becomes Gemm(x, vt, b, transB=1). Kept: the Transpose t3 of MatMul's A (only B folds); the
// 3-D Transpose t4 feeding a batched MatMul; MatMul(x3b, Transpose(vt)) of a 3-D x3b, which
// only transpose-matmul (the `all` level) makes a com.microsoft FusedMatMul(x3b, vt,
// transB=1), so that the basic level writes plain ONNX. vt = w^T and xt = x^T, so the outputs
// are x · w (+ b).
GraphBuilder transpose_model() {
  GraphBuilder g("main");
  g.input("xt", ElemType::Float, {3, 2})
      .input("x", ElemType::Float, {2, 3})
      .input("vt", ElemType::Float, {2, 3})
      .input("x3", ElemType::Float, {1, 3, 2})
      .input("x3b", ElemType::Float, {1, 2, 3});
  g.initializer("w", kW).initializer("b", kBias);
  test::set_ints(g.node("Transpose", {"vt"}, {"t1"}), "perm", {1, 0});
  g.node("MatMul", {"x", "t1"}, {"y1"}, "mm1");
  g.node("Transpose", {"vt"}, {"t2"});
  g.node("Gemm", {"x", "t2", "b"}, {"y2"}, "gemm2");
  test::set_ints(g.node("Transpose", {"xt"}, {"t3"}), "perm", {1, 0});
  g.node("MatMul", {"t3", "w"}, {"y3"});
  test::set_ints(g.node("Transpose", {"x3"}, {"t4"}), "perm", {0, 2, 1});
  g.node("MatMul", {"t4", "w"}, {"y4"});
  test::set_ints(g.node("Transpose", {"vt"}, {"t5"}), "perm", {1, 0});
  g.node("MatMul", {"x3b", "t5"}, {"y5"}, "mm5");
  g.output("y1", ElemType::Float, {2, 2})
      .output("y2", ElemType::Float, {2, 2})
      .output("y3", ElemType::Float, {2, 2})
      .output("y4", ElemType::Float, {1, 2, 2})
      .output("y5", ElemType::Float, {1, 2, 2});
  return g;
}

TEST(PassGolden, TransposeGemm) {
  std::string out = test::check_golden(transpose_model(), "transpose-gemm",
                                       test::report_line("transpose-gemm", 2));
  EXPECT_EQ(test::count_ops(out, "Transpose"), 3);
  EXPECT_EQ(test::count_ops(out, "FusedMatMul"), 0);
  const std::string fused = test::optimize_file(out, {"transpose-matmul"});
  EXPECT_EQ(test::count_ops(fused, "Transpose"), 2);
  EXPECT_EQ(test::count_ops(fused, "FusedMatMul"), 1);
  auto y = test::run_plain(out, {{"xt", f32({3, 2}, {1, 4, 2, 5, 3, 6})},
                                 {"x", kX},
                                 {"vt", f32({2, 3}, {1, 0, 1, 0, 1, 1})},
                                 {"x3", f32({1, 3, 2}, {1, 4, 2, 5, 3, 6})},
                                 {"x3b", f32({1, 2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_EQ(floats_of(y[0]), kProduct);
  EXPECT_EQ(floats_of(y[1]), kWithBias);
  EXPECT_EQ(floats_of(y[2]), kProduct);
  EXPECT_EQ(floats_of(y[3]), kProduct);
  EXPECT_EQ(floats_of(y[4]), kProduct);
  EXPECT_EQ(floats_of(test::run_plain(fused, {{"xt", f32({3, 2}, {1, 4, 2, 5, 3, 6})},
                                              {"x", kX},
                                              {"vt", f32({2, 3}, {1, 0, 1, 0, 1, 1})},
                                              {"x3", f32({1, 3, 2}, {1, 4, 2, 5, 3, 6})},
                                              {"x3b", f32({1, 2, 3}, {1, 2, 3, 4, 5, 6})}})[4]),
            kProduct);
}

// How many nodes of `op` are left after running `pass` over `g`.
int left_after(const GraphBuilder& g, const std::string& pass, const std::string& op,
               const std::string& name) {
  return test::count_ops(test::optimize_file(test::save_scratch(g, name), {pass}), op);
}

// z = Add(MatMul(a, w), bias) with a of shape `a_dims` and the bias an input of `bias_dims`.
GraphBuilder bias_model(test::Dims64 a_dims, test::Dims64 bias_dims) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, a_dims).input("bias", ElemType::Float, bias_dims);
  g.initializer("w", f32({3, 2}, {1, 2, 3, 4, 5, 6}));
  g.node("MatMul", {"a", "w"}, {"m"});
  g.node("Add", {"m", "bias"}, {"z"});
  g.output("z", ElemType::Float, {}, false);
  return g;
}

TEST(MatMulAddGemm, FiresOnlyWhereTheBiasKeepsTheProductsShape) {
  EXPECT_EQ(left_after(bias_model({4, 3}, {2}), "matmul-add-gemm", "Gemm", "bias_n"), 1);
  EXPECT_EQ(left_after(bias_model({4, 3}, {1, 2}), "matmul-add-gemm", "Gemm", "bias_1n"), 1);
  EXPECT_EQ(left_after(bias_model({4, 3}, {}), "matmul-add-gemm", "Gemm", "bias_scalar"), 1);
  // The bias on the first axis, a full [M, N] bias, a bias that widens the result.
  EXPECT_EQ(left_after(bias_model({4, 3}, {4, 1}), "matmul-add-gemm", "Gemm", "bias_m1"), 0);
  EXPECT_EQ(left_after(bias_model({4, 3}, {4, 2}), "matmul-add-gemm", "Gemm", "bias_mn"), 0);
  EXPECT_EQ(left_after(bias_model({4, 3}, {5, 1, 2}), "matmul-add-gemm", "Gemm", "bias_3d"), 0);
  // A batched product (A is 3-D) is no Gemm.
  EXPECT_EQ(left_after(bias_model({2, 4, 3}, {2}), "matmul-add-gemm", "Gemm", "batched"), 0);
}

TEST(MatMulAddGemm, LeavesABiasOfUnknownShape) {
  GraphBuilder g = bias_model({4, 3}, {2});
  g.name_input_dim(1, 0, "n");
  EXPECT_EQ(left_after(g, "matmul-add-gemm", "Gemm", "bias_symbolic"), 0);
  EXPECT_EQ(left_after(bias_model({4, 3}, {2}).output("m", ElemType::Float, {}, false),
                       "matmul-add-gemm", "Gemm", "product_is_output"),
            0);
}

TEST(MatMulAddGemm, LeavesAProductReadTwiceByTheAdd) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2, 3});
  g.initializer("w", kW);
  g.node("MatMul", {"a", "w"}, {"m"});
  g.node("Add", {"m", "m"}, {"z"});
  g.output("z", ElemType::Float, {}, false);
  EXPECT_EQ(left_after(g, "matmul-add-gemm", "Gemm", "add_twice"), 0);
}

TEST(MatMulAddGemm, LeavesAProductABranchCaptures) {
  GraphBuilder then_g("then_g");
  then_g.node("Neg", {"m"}, {"n"});
  then_g.output("n", ElemType::Float, {2, 2});
  GraphBuilder else_g("else_g");
  else_g.node("Abs", {"m"}, {"n2"});
  else_g.output("n2", ElemType::Float, {2, 2});
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2, 3}).input("p", ElemType::Bool);
  g.initializer("w", kW).initializer("b", kBias);
  g.node("MatMul", {"a", "w"}, {"m"});
  g.node("Add", {"m", "b"}, {"z"});
  g.node("If", {"p"}, {"r"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output("z", ElemType::Float, {}, false).output("r", ElemType::Float, {}, false);
  EXPECT_EQ(left_after(g, "matmul-add-gemm", "Gemm", "captured"), 0);
}

TEST(TransposeGemm, LeavesATransposeThatIsAGraphOutputOrReadTwice) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2, 3}).input("bt", ElemType::Float, {2, 3});
  g.node("Transpose", {"bt"}, {"t"});
  g.node("MatMul", {"a", "t"}, {"y"});
  g.output("y", ElemType::Float, {}, false).output("t", ElemType::Float, {}, false);
  EXPECT_EQ(left_after(g, "transpose-gemm", "Transpose", "transpose_output"), 1);
  GraphBuilder twice("main");
  twice.input("x", ElemType::Float, {3, 3});
  twice.node("Transpose", {"x"}, {"t"});
  twice.node("MatMul", {"t", "t"}, {"y"});
  twice.output("y", ElemType::Float, {}, false);
  EXPECT_EQ(left_after(twice, "transpose-gemm", "Transpose", "transpose_twice"), 1);
}

// out[i][j] = sum_k a[i][k] * b[k][j] (+ bias[.][j] broadcast), in double.
std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b,
                             const std::vector<float>& bias, int64_t m, int64_t k, int64_t n) {
  std::vector<float> out(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(a[i * k + p]) * b[p * n + j];
      const float add = bias.empty() ? 0.0f : bias.size() == 1 ? bias[0] : bias[j];
      out[i * n + j] = static_cast<float>(s) + add;
    }
  return out;
}

std::vector<float> transposed(const std::vector<float>& v, int64_t rows, int64_t cols) {
  std::vector<float> t(v.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = v[r * cols + c];
  return t;
}

// z = Add(MatMul(A, B), bias), A optionally Transpose(at) and B optionally Transpose(bt),
// all inside an If's then-branch (the else-branch: Neg of the bias), at random shapes; the
// `all` level fuses it into one Gemm (A's Transpose stays); both levels and both thread counts
// match the reference loop.
TEST(Fusions, FusedMatchesUnfusedOnRandomShapes) {
  test::Rng rng(1313);
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE(trial);
    const int64_t m = rng.uniform(1, 9), k = rng.uniform(1, 40), n = rng.uniform(1, 33);
    const bool ta = rng.chance(0.5), tb = rng.chance(0.5), swap = rng.chance(0.5);
    const bool weight = rng.chance(0.5);
    const int bias_kind = static_cast<int>(rng.uniform(0, 2));  // [n], [1, n], [1]
    const test::Dims64 bias_dims = bias_kind == 0   ? test::Dims64{n}
                                   : bias_kind == 1 ? test::Dims64{1, n}
                                                    : test::Dims64{1};
    const Dims bias_shape = bias_kind == 0 ? Dims{n} : bias_kind == 1 ? Dims{1, n} : Dims{1};
    Tensor a = test::random_floats({m, k}, rng), b = test::random_floats({k, n}, rng);
    Tensor bias = test::random_floats(bias_shape, rng);
    GraphBuilder then_g("then_g");
    if (ta) then_g.node("Transpose", {"at"}, {"ta"});
    if (tb) then_g.node("Transpose", {"bt"}, {"tb"});
    then_g.node("MatMul", {ta ? "ta" : "a", tb ? "tb" : "b"}, {"prod"});
    then_g.node(
        "Add",
        swap ? std::vector<std::string>{"bias", "prod"} : std::vector<std::string>{"prod", "bias"},
        {"sum"});
    then_g.output("sum", ElemType::Float, {m, n});
    GraphBuilder else_g("else_g");
    else_g.node("Neg", {"bias"}, {"neg"});
    else_g.output("neg", ElemType::Float, {}, false);
    GraphBuilder g("main");
    g.input(ta ? "at" : "a", ElemType::Float, ta ? test::Dims64{k, m} : test::Dims64{m, k});
    g.input("p", ElemType::Bool);
    g.input("bias", ElemType::Float, bias_dims);
    test::NamedTensors feed = {
        {ta ? "at" : "a", ta ? f32({k, m}, transposed(floats_of(a), m, k)) : a},
        {"p", test::boolean({}, {true})},
        {"bias", bias}};
    const Tensor bt = f32({n, k}, transposed(floats_of(b), k, n));
    if (weight) {
      g.initializer(tb ? "bt" : "b", tb ? bt : b);
    } else {
      g.input(tb ? "bt" : "b", ElemType::Float, tb ? test::Dims64{n, k} : test::Dims64{k, n});
      feed.emplace_back(tb ? "bt" : "b", tb ? bt : b);
    }
    g.node("If", {"p"}, {"r"});
    test::set_graph(g.graph_node_last(), "then_branch", then_g);
    test::set_graph(g.graph_node_last(), "else_branch", else_g);
    g.output("r", ElemType::Float, {}, false);
    const std::string path = test::save_scratch(g, "fusions_random");
    const std::string fused = test::optimize_file(path, {"matmul-add-gemm", "transpose-gemm"});
    EXPECT_EQ(test::count_ops(fused, "Gemm"), 1);
    EXPECT_EQ(test::count_ops(fused, "MatMul") + test::count_ops(fused, "Add"), 0);
    // A's Transpose stays (only B's folds into the Gemm).
    EXPECT_EQ(test::count_ops(fused, "Transpose"), ta ? 1 : 0);
    const std::vector<float> want = reference(floats_of(a), floats_of(b), floats_of(bias), m, k, n);
    for (Optimization level : {Optimization::none, Optimization::all})
      for (int threads : {1, 2}) {
        SessionOptions options;
        options.optimization = level;
        options.threads = threads;
        Session session(Model::load(path), options);
        NamedValues values;
        for (const auto& [name, t] : feed) values.emplace_back(name, Value(t));
        const std::vector<float> got = floats_of(session.run(values)[0].second.tensor());
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
          EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + k)) << "at " << i << ", threads " << threads;
      }
  }
}

// t2 = Transpose(Transpose(x, [0, 2, 1]), [2, 0, 1]) becomes Transpose(x, [1, 0, 2]): output
// axis i reads the middle's axis p2[i], which is x's axis p1[p2[i]] = [1, 0, 2][i]. s2 =
// Transpose(Transpose(y)) (no perms: both reverse) is the identity and becomes Identity(y).
// Kept: k1, which Neg also reads.
GraphBuilder transposes_model() {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3, 4}).input("y", ElemType::Float, {2, 3});
  test::set_ints(g.node("Transpose", {"x"}, {"t1"}), "perm", {0, 2, 1});
  test::set_ints(g.node("Transpose", {"t1"}, {"t2"}), "perm", {2, 0, 1});
  g.node("Transpose", {"y"}, {"s1"});
  g.node("Transpose", {"s1"}, {"s2"});
  test::set_ints(g.node("Transpose", {"x"}, {"k1"}), "perm", {0, 2, 1});
  test::set_ints(g.node("Transpose", {"k1"}, {"k2"}), "perm", {0, 2, 1});
  g.node("Neg", {"k1"}, {"n1"});
  g.output("t2", ElemType::Float, {3, 2, 4})
      .output("s2", ElemType::Float, {2, 3})
      .output("k2", ElemType::Float, {2, 3, 4})
      .output("n1", ElemType::Float, {2, 4, 3});
  return g;
}

// The values of `x` (of `shape`) transposed by `perm`, by index arithmetic.
std::vector<float> transposed_ref(const Tensor& x, const Dims& shape,
                                  const std::vector<int64_t>& perm) {
  Dims out_shape;
  for (int64_t a : perm) out_shape.push_back(shape[static_cast<size_t>(a)]);
  const std::vector<float> in = floats_of(x);
  std::vector<float> out(in.size());
  for (int64_t flat = 0; flat < static_cast<int64_t>(out.size()); ++flat) {
    const std::vector<int64_t> oc = test::unravel(flat, out_shape);
    std::vector<int64_t> ic(oc.size());
    for (size_t i = 0; i < perm.size(); ++i) ic[static_cast<size_t>(perm[i])] = oc[i];
    out[static_cast<size_t>(flat)] = in[static_cast<size_t>(test::ravel(ic, shape))];
  }
  return out;
}

TEST(MergeTransposes, LeavesAPairWhoseMergeMovesTheLastAxis) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 8, 4, 6});
  test::set_ints(g.node("Transpose", {"x"}, {"t1"}), "perm", {0, 2, 1, 3});
  test::set_ints(g.node("Transpose", {"t1"}, {"t2"}), "perm", {0, 1, 3, 2});  // merged: [0,2,3,1]
  g.output("t2", ElemType::Float, {}, false);
  EXPECT_EQ(left_after(g, "merge-transposes", "Transpose", "merge_last_axis"), 2);
}

TEST(PassGolden, MergeTransposes) {
  std::string out = test::check_golden(transposes_model(), "merge-transposes",
                                       test::report_line("merge-transposes", 2));
  EXPECT_EQ(test::count_ops(out, "Transpose"), 3);
  std::vector<float> xs(24), ys = {1, 2, 3, 4, 5, 6};
  std::iota(xs.begin(), xs.end(), 0.0f);
  const Tensor x = f32({2, 3, 4}, xs);
  auto r = test::run_plain(out, {{"x", x}, {"y", f32({2, 3}, ys)}});
  EXPECT_EQ(floats_of(r[0]), transposed_ref(x, {2, 3, 4}, {1, 0, 2}));
  EXPECT_EQ(floats_of(r[1]), ys);
  EXPECT_EQ(floats_of(r[2]), xs);
}

// Chains of two or three Transposes of random perms over random shapes of rank 1 to 4: the
// `all` level gives the reference loop's values; a pair whose merged perm keeps the last
// axis last (or is the identity) becomes one node.
TEST(Fusions, MergedTransposesMatchOnRandomPerms) {
  test::Rng rng(2026);
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const size_t rank = static_cast<size_t>(rng.uniform(1, 4));
    const Dims shape = rng.shape(rank, 4);
    const int links = static_cast<int>(rng.uniform(2, 3));
    GraphBuilder g("main");
    test::Dims64 dims(shape.begin(), shape.end());
    g.input("x", ElemType::Float, dims);
    std::vector<int64_t> total(rank);
    std::iota(total.begin(), total.end(), 0);
    std::string prev = "x";
    for (int l = 0; l < links; ++l) {
      std::vector<int64_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng.engine());
      const std::string name = "t" + std::to_string(l);
      test::set_ints(g.node("Transpose", {prev}, {name}), "perm", perm);
      std::vector<int64_t> next(rank);
      for (size_t i = 0; i < rank; ++i) next[i] = total[static_cast<size_t>(perm[i])];
      total = next;
      prev = name;
    }
    g.output(prev, ElemType::Float, {}, false);
    const std::string path = test::save_scratch(g, "merge_random");
    // (A pair that is the identity becomes an Identity, which fold-identity removes when
    // a third Transpose reads it.)
    const std::string merged = test::optimize_file(path, {"merge-transposes", "fold-identity"});
    const int left = test::count_ops(merged, "Transpose") + test::count_ops(merged, "Identity");
    if (links == 2 && total.back() == static_cast<int64_t>(rank) - 1) {
      EXPECT_EQ(left, 1);
    }
    EXPECT_LE(left, links);
    const Tensor x = test::random_floats(shape, rng);
    const std::vector<float> want = transposed_ref(x, shape, total);
    for (int threads : {1, 2}) {
      SessionOptions options;
      options.optimization = Optimization::all;
      options.threads = threads;
      Session session(Model::load(path), options);
      EXPECT_EQ(floats_of(session.run({{"x", Value(x)}})[0].second.tensor()), want);
    }
  }
}

}  // namespace
}  // namespace bough
