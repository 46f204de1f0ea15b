// erf-gelu: both exported orders of x · 0.5 · (1 + erf(x / √2)) become one com.microsoft Gelu,
// chains with a shared intermediate value or another constant stay, and the fused model
// gives the exact Gelu (a double reference with std::erf) on random shapes at 1 and 2
// threads, as the unfused model does.
#include <gtest/gtest.h>

#include <cmath>

#include "bough/session.h"
#include "passes/pass_test_util.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// y1 = Mul(Mul(x, Add(Erf(Div(x, √2)), 1)), 0.5); y2 = Mul(Add(1, Erf(Mul(1/√2, x))), Mul(0.5, x));
// y3 as y1 but Erf's output is also a graph output (e3); y4 as y1 but divided by 1.5.
GraphBuilder gelu_model(int64_t rows, int64_t cols) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {rows, cols});
  g.initializer("sqrt2", f32({}, {static_cast<float>(std::sqrt(2.0))}))
      .initializer("inv_sqrt2", f32({1}, {static_cast<float>(std::sqrt(0.5))}))
      .initializer("one", f32({}, {1}))
      .initializer("half", f32({}, {0.5f}))
      .initializer("one_and_half", f32({}, {1.5f}));
  g.node("Div", {"x", "sqrt2"}, {"d1"});
  g.node("Erf", {"d1"}, {"e1"});
  g.node("Add", {"e1", "one"}, {"a1"});
  g.node("Mul", {"x", "a1"}, {"m1"});
  g.node("Mul", {"m1", "half"}, {"y1"});
  g.node("Mul", {"inv_sqrt2", "x"}, {"d2"});
  g.node("Erf", {"d2"}, {"e2"});
  g.node("Add", {"one", "e2"}, {"a2"});
  g.node("Mul", {"half", "x"}, {"h2"});
  g.node("Mul", {"a2", "h2"}, {"y2"});
  g.node("Div", {"x", "sqrt2"}, {"d3"});
  g.node("Erf", {"d3"}, {"e3"});
  g.node("Add", {"e3", "one"}, {"a3"});
  g.node("Mul", {"x", "a3"}, {"m3"});
  g.node("Mul", {"m3", "half"}, {"y3"});
  g.node("Div", {"x", "one_and_half"}, {"d4"});
  g.node("Erf", {"d4"}, {"e4"});
  g.node("Add", {"e4", "one"}, {"a4"});
  g.node("Mul", {"x", "a4"}, {"m4"});
  g.node("Mul", {"m4", "half"}, {"y4"});
  for (const char* out : {"y1", "y2", "y3", "e3", "y4"})
    g.output(out, ElemType::Float, {rows, cols});
  return g;
}

std::vector<float> gelu_ref(const Tensor& x, double divisor) {
  std::vector<float> y;
  for (float v : floats_of(x))
    y.push_back(static_cast<float>(0.5 * v * (1.0 + std::erf(v / divisor))));
  return y;
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-5 + 1e-5 * std::abs(want[i])) << "element " << i;
}

TEST(ErfGelu, FusesBothExportedOrdersAndLeavesTheRest) {
  const std::string path = test::save_scratch(gelu_model(2, 3), "erf_gelu");
  const std::string out = test::optimize_file(path, {"erf-gelu"});
  EXPECT_EQ(test::count_ops(out, "Gelu"), 2);  // y1 and y2
  EXPECT_EQ(test::count_ops(out, "Erf"), 2);   // y3's (e3 is an output) and y4's (x / 1.5)
  EXPECT_EQ(test::count_ops(out, "Mul"), 4);   // two each in y3 and y4
  // x = [-3, -1, -0.5, 0, 1, 2.5]: Gelu(x) = 0.5 x (1 + erf(x / √2)).
  const Tensor x = f32({2, 3}, {-3, -1, -0.5f, 0, 1, 2.5f});
  const std::vector<Tensor> y = test::run_plain(out, {{"x", x}});
  expect_near(floats_of(y[0]), gelu_ref(x, std::sqrt(2.0)));
  expect_near(floats_of(y[1]), gelu_ref(x, std::sqrt(2.0)));
  expect_near(floats_of(y[2]), gelu_ref(x, std::sqrt(2.0)));
  expect_near(floats_of(y[4]), gelu_ref(x, 1.5));
}

TEST(Fusions, ErfGeluMatchesTheExactGeluOnRandomShapes) {
  test::Rng rng(2025);
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t rows = rng.uniform(1, 7), cols = rng.uniform(1, 300);
    const std::string path =
        test::save_scratch(gelu_model(rows, cols), "erf_gelu_random_" + std::to_string(trial));
    const Tensor x = test::random_floats({rows, cols}, rng);
    for (int threads : {1, 2})
      for (Optimization level : {Optimization::none, Optimization::all}) {
        SessionOptions options;
        options.optimization = level;
        options.threads = threads;
        Session session(Model::load(path), options);
        const auto y = session.run({{"x", Value(x)}});
        expect_near(floats_of(y[0].second.tensor()), gelu_ref(x, std::sqrt(2.0)));
        expect_near(floats_of(y[1].second.tensor()), gelu_ref(x, std::sqrt(2.0)));
        expect_near(floats_of(y[4].second.tensor()), gelu_ref(x, 1.5));
      }
  }
}

}  // namespace
}  // namespace bough
