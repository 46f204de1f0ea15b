// MatMul and Gemm with B a constant initializer (packed once when the plan is built) and
// with B a graph input (packed or streamed per run), at 1 and 2 threads, against a plain
// loop in double: random shapes with batch dims on A, 1-D A, transA/transB, alpha, beta and
// every way C broadcasts. Operands are uniform in [-1, 1]; the tolerance is the float
// summation bound (k + 2) * FLT_EPSILON * sum |terms| (plus |beta c| rounding for Gemm).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "bough/session.h"
#include "exec/plan.h"
#include "ir/graph.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Rng;

struct Product {
  std::string op;  // MatMul or Gemm
  Tensor a, b, c;  // c: Gemm's C when has_c
  bool has_c = false;
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
};

// Saves the one-node model with B as an initializer (`constant_b`) or as an input.
std::string save(const Product& p, bool constant_b) {
  test::GraphBuilder g;
  g.input("A", ElemType::Float, p.a.shape().vec());
  if (constant_b) {
    g.initializer("B", p.b);
  } else {
    g.input("B", ElemType::Float, p.b.shape().vec());
  }
  std::vector<std::string> ins = {"A", "B"};
  if (p.has_c) {
    g.input("C", ElemType::Float, p.c.shape().vec());
    ins.push_back("C");
  }
  g.output_untyped("Y");
  onnxpb::NodeProto& n = g.node(p.op, ins, {"Y"});
  if (p.op == "Gemm") {
    test::set_int(n, "transA", p.trans_a);
    test::set_int(n, "transB", p.trans_b);
    test::set_float(n, "alpha", p.alpha);
    test::set_float(n, "beta", p.beta);
  }
  return test::save_model(test::make_model(g, 17), test::scratch_dir("gemm_prepared"), "m.onnx");
}

// Runs the model of save() and checks that a constant B, and only that, was prepared: once,
// when the plan was compiled.
Tensor run(const Product& p, bool constant_b, int threads) {
  const std::string path = save(p, constant_b);
  const Model model = Model::load(path);
  const auto plan =
      exec::Plan::compile(*model.ir().graph, exec::CompileEnv{&model.ir(), nullptr, nullptr});
  EXPECT_EQ(plan->prepared_weights(), constant_b ? 1u : 0u);
  Session session(Model::load(path), SessionOptions{threads});
  NamedValues feeds = {{"A", p.a}};
  if (!constant_b) feeds.emplace_back("B", p.b);
  if (p.has_c) feeds.emplace_back("C", p.c);
  return session.run(feeds).at(0).second.tensor();
}

// y (m x n) against alpha · A'B' + beta · C (C broadcast from the right) for the rows
// `rows` x k of A' and k x n of B' read through the given element functions.
template <typename GetA, typename GetB>
void expect_close(const Tensor& y, int64_t rows, int64_t k, int64_t n, GetA a, GetB b,
                  const Product& p) {
  ASSERT_EQ(y.numel(), rows * n);
  const Dims& cs = p.c.shape();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t t = 0; t < k; ++t) {
        sum += double{a(i, t)} * double{b(t, j)};
        magnitude += std::fabs(double{a(i, t)} * double{b(t, j)});
      }
      double want = p.alpha * sum, tol = (k + 2) * FLT_EPSILON * std::fabs(p.alpha) * magnitude;
      if (p.has_c) {
        const int64_t ci = cs.size() == 2 && cs[0] != 1 ? i : 0;
        const int64_t cj = !cs.empty() && cs.back() != 1 ? j : 0;
        const int64_t cn = cs.empty() ? 1 : cs.back();
        const double cv = p.c.data<float>()[ci * cn + cj];
        want += p.beta * cv;
        tol += 2 * FLT_EPSILON * (std::fabs(p.beta * cv) + std::fabs(want));
      }
      ASSERT_LE(std::fabs(y.data<float>()[i * n + j] - want), tol)
          << "at (" << i << ", " << j << ")";
    }
}

void check_matmul(const Product& p) {
  const int64_t k = p.b.dim(0), n = p.b.dim(1);
  const int64_t rows = p.a.numel() / std::max<int64_t>(1, k);
  const float* a = p.a.data<float>();
  const float* b = p.b.data<float>();
  for (bool constant_b : {true, false})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(shape_string(p.a.shape()) + " x " + shape_string(p.b.shape()) +
                   (constant_b ? " constant B" : " B input") + " on " + std::to_string(threads));
      const Tensor y = run(p, constant_b, threads);
      Dims want = p.a.shape();
      want[want.size() - 1] = n;
      ASSERT_EQ(y.shape(), want);
      expect_close(
          y, rows, k, n, [&](int64_t i, int64_t t) { return a[i * k + t]; },
          [&](int64_t t, int64_t j) { return b[t * n + j]; }, p);
    }
}

TEST(GemmPrepared, MatMulConstantAndInputB) {
  Rng rng(41);
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t m = rng.uniform(1, 40), k = rng.uniform(1, 40), n = rng.uniform(1, 40);
    Dims as{m, k};
    if (rng.chance(0.3)) as = Dims{rng.uniform(1, 3), m, k};
    if (rng.chance(0.15)) as = Dims{k};
    check_matmul({"MatMul", test::random_floats(as, rng), test::random_floats(Dims{k, n}, rng)});
    if (HasFatalFailure()) return;
  }
  // One row of a wide weight, and sizes past the packing blocks.
  for (const auto& [as, bs] : std::vector<std::pair<Dims, Dims>>{
           {Dims{1, 768}, Dims{768, 1030}}, {Dims{2, 9, 300}, Dims{300, 70}}}) {
    check_matmul({"MatMul", test::random_floats(as, rng), test::random_floats(bs, rng)});
    if (HasFatalFailure()) return;
  }
}

void check_gemm(const Product& p, int64_t m, int64_t k, int64_t n) {
  const float* a = p.a.data<float>();
  const float* b = p.b.data<float>();
  for (bool constant_b : {true, false})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
                   " transA " + std::to_string(p.trans_a) + " transB " + std::to_string(p.trans_b) +
                   " alpha " + std::to_string(p.alpha) + " beta " + std::to_string(p.beta) + " C " +
                   (p.has_c ? shape_string(p.c.shape()) : "none") +
                   (constant_b ? " constant B" : " B input") + " on " + std::to_string(threads));
      const Tensor y = run(p, constant_b, threads);
      ASSERT_EQ(y.shape(), (Dims{m, n}));
      expect_close(
          y, m, k, n, [&](int64_t i, int64_t t) { return p.trans_a ? a[t * m + i] : a[i * k + t]; },
          [&](int64_t t, int64_t j) { return p.trans_b ? b[j * k + t] : b[t * n + j]; }, p);
    }
}

Product random_gemm(Rng& rng, int64_t m, int64_t k, int64_t n) {
  Product p;
  p.op = "Gemm";
  p.trans_a = rng.chance(0.5);
  p.trans_b = rng.chance(0.5);
  p.alpha = rng.chance(0.5) ? 1.0f : static_cast<float>(rng.real(-2, 2));
  p.beta = rng.chance(0.5) ? 1.0f : static_cast<float>(rng.real(-2, 2));
  p.a = test::random_floats(p.trans_a ? Dims{k, m} : Dims{m, k}, rng);
  p.b = test::random_floats(p.trans_b ? Dims{n, k} : Dims{k, n}, rng);
  // C of every shape that broadcasts to (m, n), or none.
  const Dims c_shapes[] = {Dims{}, Dims{n}, Dims{1, n}, Dims{m, 1}, Dims{m, n}, Dims{1}};
  const int64_t shape = rng.uniform(-1, 5);
  p.has_c = shape >= 0;
  if (p.has_c) p.c = test::random_floats(c_shapes[shape], rng);
  return p;
}

TEST(GemmPrepared, GemmConstantAndInputB) {
  Rng rng(42);
  for (int trial = 0; trial < 48; ++trial) {
    const int64_t m = rng.uniform(1, 40), k = rng.uniform(1, 40), n = rng.uniform(1, 40);
    check_gemm(random_gemm(rng, m, k, n), m, k, n);
    if (HasFatalFailure()) return;
  }
  for (int trans_b : {0, 1}) {  // past the packing blocks, rows and columns split over threads
    Product p = random_gemm(rng, 37, 300, 70);
    p.trans_b = trans_b;
    p.b = test::random_floats(trans_b ? Dims{70, 300} : Dims{300, 70}, rng);
    check_gemm(p, 37, 300, 70);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace bough
