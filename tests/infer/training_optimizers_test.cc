// The optimizers of ai.onnx.preview.training (Adagrad, Adam, Momentum) beyond the official
// tests: several tensors of different types and shapes in one call, T = 0 against T > 0,
// Nesterov against standard momentum, attribute defaults, a large update split over threads
// against an independent reference loop, the errors, and the domain's place in the opset
// check, and the counts each declares. Expected values are worked out by hand in the
// comments.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "bough/session.h"
#include "error_text.h"
#include "infer/check_util.h"
#include "model_builder.h"
#include "ops/registry.h"
#include "test_paths.h"

namespace bough::test {
namespace {

const std::string kDomain = "ai.onnx.preview.training";

Tensor f64(Dims64 dims, std::vector<double> v) {
  return Tensor::from_vector<double>(ElemType::Double, Dims(std::span<const int64_t>(dims)), v);
}
Tensor scalar_f32(float v) { return f32({}, {v}); }
Tensor count(int64_t t) { return i64({}, {t}); }

std::vector<Tensor> run_optimizer(const std::string& op, const NamedTensors& ins, int outputs,
                                  const Attrs& attrs, int threads = 1) {
  return run_node(op, ins, outputs, attrs, 1, "training", threads, kDomain);
}

void expect_values(const Tensor& t, ElemType type, const Dims64& dims,
                   const std::vector<double>& want, double tolerance = 1e-6) {
  EXPECT_EQ(t.type(), type);
  EXPECT_EQ(t.shape(), Dims(std::span<const int64_t>(dims)));
  const std::vector<double> got = doubles_of(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tolerance) << "element " << i;
}

// ---------------------------------------------------------------------------------------
// Adagrad

TEST(AdagradTest, TwoTensorsOfDifferentTypesInOneCall) {
  // r = R / (1 + T * decay_factor) = 0.5 / (1 + 2 * 0.5) = 0.25; epsilon 0.
  // X1 = [2, -2] (float), G1 = [1, 3], H1 = [0, 12]: g = 0.5 * X1 + G1 = [2, 2],
  //   H1' = [4, 16], X1' = X1 - 0.25 * g / sqrt(H1') = [2 - 0.5 / 2, -2 - 0.5 / 4] = [1.75,
  //   -2.125].
  // X2 = [[1]] (double), G2 = [[-1.5]], H2 = [[8]]: g = -1, H2' = 9, X2' = 1 + 0.25 / 3 = 13/12.
  auto out = run_optimizer("Adagrad",
                           {{"R", scalar_f32(0.5f)},
                            {"T", count(2)},
                            {"X1", f32({2}, {2, -2})},
                            {"X2", f64({1, 1}, {1})},
                            {"G1", f32({2}, {1, 3})},
                            {"G2", f64({1, 1}, {-1.5})},
                            {"H1", f32({2}, {0, 12})},
                            {"H2", f64({1, 1}, {8})}},
                           4, [](onnxpb::NodeProto& n) {
                             set_float(n, "decay_factor", 0.5f);
                             set_float(n, "norm_coefficient", 0.5f);
                             set_float(n, "epsilon", 0.0f);
                           });
  expect_values(out[0], ElemType::Float, {2}, {1.75, -2.125});
  expect_values(out[1], ElemType::Double, {1, 1}, {13.0 / 12.0}, 1e-12);
  expect_values(out[2], ElemType::Float, {2}, {4, 16});
  expect_values(out[3], ElemType::Double, {1, 1}, {9}, 1e-12);
}

TEST(AdagradTest, DefaultEpsilonKeepsAZeroGradientFinite) {
  // Defaults: decay 0, norm 0, epsilon 1e-6. G = 0 and H = 0 give H' = 0 and
  // X' = X - R * 0 / (0 + 1e-6) = X (0 / 0 without epsilon).
  auto out = run_optimizer("Adagrad",
                           {{"R", scalar_f32(1)},
                            {"T", count(0)},
                            {"X", f32({2}, {3, -4})},
                            {"G", f32({2}, {0, 1})},
                            {"H", f32({2}, {0, 0})}},
                           2, nullptr);
  // Second element: g = 1, H' = 1, X' = -4 - 1 / (1 + 1e-6).
  expect_values(out[0], ElemType::Float, {2}, {3, -4 - 1 / (1 + 1e-6)});
  expect_values(out[1], ElemType::Float, {2}, {0, 1});
}

// ---------------------------------------------------------------------------------------
// Adam

NamedTensors adam_inputs(int64_t t) {
  return {{"R", scalar_f32(0.75f)}, {"T", count(t)},          {"X1", f32({1}, {2})},
          {"X2", f32({2}, {0, 4})}, {"G1", f32({1}, {1})},    {"G2", f32({2}, {1, 0})},
          {"V1", f32({1}, {2})},    {"V2", f32({2}, {1, 0})}, {"H1", f32({1}, {4})},
          {"H2", f32({2}, {1, 4})}};
}

Attrs adam_attrs() {
  return [](onnxpb::NodeProto& n) {
    set_float(n, "alpha", 0.5f);
    set_float(n, "beta", 0.6f);
    set_float(n, "epsilon", 0.0f);
    set_float(n, "norm_coefficient", 0.5f);
    set_float(n, "norm_coefficient_post", 0.5f);
  };
}

TEST(AdamTest, BiasCorrectionAfterTheFirstStepAndPostNorm) {
  // g = 0.5 * X + G: tensor 1 [2], tensor 2 [1, 2].
  // V' = 0.5 V + 0.5 g: [2], [1, 1]. H' = 0.6 H + 0.4 g^2: [4], [1, 4].
  // T = 2: r = R * sqrt(1 - 0.6^2) / (1 - 0.5^2) = 0.75 * 0.8 / 0.75 = 0.8.
  // X' = 0.5 * (X - r * V' / sqrt(H')): [0.5 * (2 - 0.8)] = [0.6],
  //   [0.5 * (0 - 0.8), 0.5 * (4 - 0.4)] = [-0.4, 1.8].
  auto out = run_optimizer("Adam", adam_inputs(2), 6, adam_attrs());
  expect_values(out[0], ElemType::Float, {1}, {0.6});
  expect_values(out[1], ElemType::Float, {2}, {-0.4, 1.8});
  expect_values(out[2], ElemType::Float, {1}, {2});
  expect_values(out[3], ElemType::Float, {2}, {1, 1});
  expect_values(out[4], ElemType::Float, {1}, {4});
  expect_values(out[5], ElemType::Float, {2}, {1, 4});
}

TEST(AdamTest, NoBiasCorrectionOnTheFirstStep) {
  // T = 0: r = R = 0.75. X' = 0.5 * (X - 0.75 * V' / sqrt(H')):
  //   [0.5 * (2 - 0.75)] = [0.625], [0.5 * (0 - 0.75), 0.5 * (4 - 0.375)] = [-0.375, 1.8125].
  auto out = run_optimizer("Adam", adam_inputs(0), 6, adam_attrs());
  expect_values(out[0], ElemType::Float, {1}, {0.625});
  expect_values(out[1], ElemType::Float, {2}, {-0.375, 1.8125});
  expect_values(out[3], ElemType::Float, {2}, {1, 1});  // the states do not depend on T
}

// ---------------------------------------------------------------------------------------
// Momentum

std::vector<Tensor> momentum(const std::string& mode, int64_t t) {
  return run_optimizer("Momentum",
                       {{"R", scalar_f32(0.5f)},
                        {"T", count(t)},
                        {"X1", f32({1}, {2})},
                        {"X2", f32({2}, {-2, 0})},
                        {"G1", f32({1}, {1})},
                        {"G2", f32({2}, {3, -1})},
                        {"V1", f32({1}, {4})},
                        {"V2", f32({2}, {0, 2})}},
                       4, [mode](onnxpb::NodeProto& n) {
                         set_float(n, "alpha", 0.5f);
                         set_float(n, "beta", 0.25f);
                         set_float(n, "norm_coefficient", 0.5f);
                         set_string(n, "mode", mode);
                       });
}

// g = 0.5 * X + G: [2], [2, -1].
TEST(MomentumTest, StandardAndNesterovAfterTheFirstStep) {
  // T = 1: V' = 0.5 V + 0.25 g: [2.5], [0.5, 0.75].
  // standard: X' = X - 0.5 V' = [0.75], [-2.25, -0.375].
  auto standard = momentum("standard", 1);
  expect_values(standard[0], ElemType::Float, {1}, {0.75});
  expect_values(standard[1], ElemType::Float, {2}, {-2.25, -0.375});
  expect_values(standard[2], ElemType::Float, {1}, {2.5});
  expect_values(standard[3], ElemType::Float, {2}, {0.5, 0.75});
  // nesterov: X' = X - 0.5 (g + 0.5 V') = [2 - 0.5 * 3.25], [-2 - 0.5 * 2.25, 0 - 0.5 * -0.625]
  //   = [0.375], [-3.125, 0.3125]; the same V'.
  auto nesterov = momentum("nesterov", 1);
  expect_values(nesterov[0], ElemType::Float, {1}, {0.375});
  expect_values(nesterov[1], ElemType::Float, {2}, {-3.125, 0.3125});
  expect_values(nesterov[2], ElemType::Float, {1}, {2.5});
  expect_values(nesterov[3], ElemType::Float, {2}, {0.5, 0.75});
}

TEST(MomentumTest, TheFirstStepTakesTheWholeGradient) {
  // T = 0: beta is replaced by 1, V' = 0.5 V + g: [4], [2, 0].
  // standard: X' = X - 0.5 V' = [0], [-3, 0]; nesterov: X - 0.5 (g + 0.5 V') = [0], [-3.5, 0.5].
  auto standard = momentum("standard", 0);
  expect_values(standard[0], ElemType::Float, {1}, {0});
  expect_values(standard[1], ElemType::Float, {2}, {-3, 0});
  expect_values(standard[3], ElemType::Float, {2}, {2, 0});
  auto nesterov = momentum("nesterov", 0);
  expect_values(nesterov[1], ElemType::Float, {2}, {-3.5, 0.5});
}

// ---------------------------------------------------------------------------------------
// A large call on two threads against a reference loop in double

TEST(OptimizerTest, AdamOnManyElementsMatchesAReferenceLoop) {
  // 50,000 elements: enough for the update to be split over the pool.
  const int64_t n = 50000;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(n), g(n), v(n), h(n);
  for (int64_t i = 0; i < n; ++i) x[i] = u(gen), g[i] = u(gen), v[i] = u(gen), h[i] = u(gen) + 1;
  const double R = 0.01, alpha = 0.9, beta = 0.99, eps = 1e-3, norm = 0.1, post = 0.01;
  const int64_t T = 5;
  auto out = run_optimizer(
      "Adam",
      {{"R", f64({}, {R})},
       {"T", count(T)},
       {"X", f64({n}, x)},
       {"G", f64({n}, g)},
       {"V", f64({n}, v)},
       {"H", f64({n}, h)}},
      3,
      [&](onnxpb::NodeProto& p) {
        set_float(p, "alpha", static_cast<float>(alpha));
        set_float(p, "beta", static_cast<float>(beta));
        set_float(p, "epsilon", static_cast<float>(eps));
        set_float(p, "norm_coefficient", static_cast<float>(norm));
        set_float(p, "norm_coefficient_post", static_cast<float>(post));
      },
      2);
  // The attributes are stored as float: the reference reads them back the same way.
  const double a = static_cast<float>(alpha), b = static_cast<float>(beta),
               e = static_cast<float>(eps), c = static_cast<float>(norm),
               cp = static_cast<float>(post);
  const double r = R * std::sqrt(1 - std::pow(b, T)) / (1 - std::pow(a, T));
  const std::vector<double> xo = doubles_of(out[0]), vo = doubles_of(out[1]),
                            ho = doubles_of(out[2]);
  int wrong = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double gr = c * x[i] + g[i];
    const double vn = a * v[i] + (1 - a) * gr, hn = b * h[i] + (1 - b) * gr * gr;
    const double xn = (1 - cp) * (x[i] - r * vn / (std::sqrt(hn) + e));
    wrong += std::abs(xo[i] - xn) > 1e-12 || std::abs(vo[i] - vn) > 1e-12 ||
             std::abs(ho[i] - hn) > 1e-12;
  }
  EXPECT_EQ(wrong, 0);
}

// ---------------------------------------------------------------------------------------
// A training loop: Momentum in a Loop body, the iteration number as T

TEST(OptimizerTest, NesterovMomentumInALoopMatchesAReferenceLoop) {
  // Minimizes |x|^2 / 2 (gradient x) for 4 steps; the body's iteration number i is T, so the
  // first step takes the whole gradient and later ones beta of it. R is an outer initializer
  // the body captures.
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool);
  body.input("x", ElemType::Float, {2}).input("v", ElemType::Float, {2});
  onnxpb::NodeProto& step = body.node("Momentum", {"R", "i", "x", "x", "v"}, {"x1", "v1"});
  step.set_domain(kDomain);
  set_float(step, "alpha", 0.5f);
  set_float(step, "beta", 0.25f);
  set_float(step, "norm_coefficient", 0.0f);
  set_string(step, "mode", "nesterov");
  body.output_untyped("cin").output_untyped("x1").output_untyped("v1");
  GraphBuilder g("main");
  g.input("x0", ElemType::Float, {2}).input("v0", ElemType::Float, {2});
  g.initializer("R", f32({}, {0.1f})).initializer("M", Tensor::scalar_i64(4));
  g.output("x", ElemType::Float, {2}).output("v", ElemType::Float, {2});
  set_graph(g.node("Loop", {"M", "", "x0", "v0"}, {"x", "v"}, "train"), "body", body);
  onnxpb::ModelProto m = make_model(g, 17);
  auto* import = m.add_opset_import();
  import->set_domain(kDomain);
  import->set_version(1);
  Session session(Model::load(save_model(m, scratch_dir("training"), "loop.onnx")));

  // The reference: the same four Nesterov steps in double.
  std::vector<double> x{1, -2}, v{0, 0};
  for (int64_t i = 0; i < 4; ++i)
    for (size_t k = 0; k < 2; ++k) {
      const double b = i > 0 ? 0.25 : 1.0;
      v[k] = 0.5 * v[k] + b * x[k];
      x[k] = x[k] - 0.1 * (x[k] + 0.5 * v[k]);
    }
  const NamedValues feeds{{"x0", f32({2}, {1, -2})}, {"v0", f32({2}, {0, 0})}};
  for (int run = 0; run < 2; ++run) {  // the second run reuses the plan and its buffers
    const auto out = session.run(feeds);
    expect_values(out[0].second.tensor(), ElemType::Float, {2}, x);
    expect_values(out[1].second.tensor(), ElemType::Float, {2}, v);
  }
}

// ---------------------------------------------------------------------------------------
// Errors and the opset check

TEST(OptimizerTest, UnknownMomentumModeIsRefused) {
  expect_error_mentioning(
      [] {
        run_optimizer("Momentum",
                      {{"R", scalar_f32(1)},
                       {"T", count(0)},
                       {"X", f32({1}, {1})},
                       {"G", f32({1}, {1})},
                       {"V", f32({1}, {1})}},
                      2, [](onnxpb::NodeProto& n) {
                        set_float(n, "alpha", 0.5f);
                        set_float(n, "beta", 0.5f);
                        set_float(n, "norm_coefficient", 0);
                        set_string(n, "mode", "heavy_ball");
                      });
      },
      "mode must be 'standard' or 'nesterov', got 'heavy_ball'");
}

TEST(OptimizerTest, InputsThatDoNotFormGroupsAreInvalid) {
  // Adam needs 2 + 4n inputs: 7 is not.
  expect_error_mentioning(
      [] {
        run_optimizer("Adam",
                      {{"R", scalar_f32(1)},
                       {"T", count(0)},
                       {"X", f32({1}, {1})},
                       {"G", f32({1}, {1})},
                       {"V", f32({1}, {1})},
                       {"H", f32({1}, {1})},
                       {"X2", f32({1}, {1})}},
                      3, nullptr);
      },
      "takes R, T, then n each of X, G, V, H (2 + 4n inputs) and gives n each of X, V, H (3n "
      "outputs), n >= 1; got 7 inputs and 3 outputs");
}

TEST(OptimizerTest, OperandsOfOneTensorMustAgree) {
  // H2 has another shape than X2: refused by inference, naming both.
  expect_error_mentioning(
      [] {
        run_optimizer("Adagrad",
                      {{"R", scalar_f32(1)},
                       {"T", count(0)},
                       {"X1", f32({1}, {1})},
                       {"X2", f32({2}, {1, 2})},
                       {"G1", f32({1}, {1})},
                       {"G2", f32({2}, {1, 2})},
                       {"H1", f32({1}, {1})},
                       {"H2", f32({3}, {1, 2, 3})}},
                      4, nullptr);
      },
      "dims of one tensor's operands differ: 2 and 3");
  // G1 is double while X1 is float.
  expect_error_mentioning(
      [] {
        run_optimizer("Adagrad",
                      {{"R", scalar_f32(1)},
                       {"T", count(0)},
                       {"X1", f32({1}, {1})},
                       {"G1", f64({1}, {1})},
                       {"H1", f32({1}, {1})}},
                      2, nullptr);
      },
      "G1 is double but X1 is float");
}

TEST(OptimizerTest, LearningRateMustBeAScalar) {
  expect_error_mentioning(
      [] {
        run_optimizer("Adagrad",
                      {{"R", f32({2}, {1, 1})},
                       {"T", count(0)},
                       {"X", f32({1}, {1})},
                       {"G", f32({1}, {1})},
                       {"H", f32({1}, {1})}},
                      2, nullptr);
      },
      "R must be a scalar");
}

// The counts each optimizer declares: one tensor optimized at least, and no upper limit.
// Adagrad takes R, T, X, G, H and gives X', H'; Adam R, T, X, G, V, H and X', V', H';
// Momentum R, T, X, G, V and X', V'.
TEST(OptimizerTest, CountsAllowOneTensorAtLeast) {
  struct Want {
    const char* op;
    int inputs, outputs;
  };
  for (const Want& w : {Want{"Adagrad", 5, 2}, Want{"Adam", 6, 3}, Want{"Momentum", 5, 2}}) {
    SCOPED_TRACE(w.op);
    const ops::OpDef* def = ops::find_op(kDomain, w.op);
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(def->min_inputs, w.inputs);
    EXPECT_EQ(def->min_outputs, w.outputs);
    EXPECT_EQ(def->max_inputs, ops::kVariadic);
    EXPECT_EQ(def->max_outputs, ops::kVariadic);
  }
}

onnxpb::ModelProto training_model(int64_t domain_version, const std::string& op) {
  GraphBuilder g("main");
  g.input("R", ElemType::Float).input("T", ElemType::Int64);
  for (const char* v : {"X", "G", "H"}) g.input(v, ElemType::Float, {2});
  g.output("X_new", ElemType::Float, {2}).output("H_new", ElemType::Float, {2});
  g.node(op, {"R", "T", "X", "G", "H"}, {"X_new", "H_new"}, "step").set_domain(kDomain);
  auto m = make_model(g, 17);
  auto* import = m.add_opset_import();
  import->set_domain(kDomain);
  import->set_version(domain_version);
  return m;
}

TEST(OptimizerTest, TheTrainingDomainIsKnownAtVersionOne) {
  EXPECT_TRUE(is_valid(check_proto(training_model(1, "Adagrad"))));
  EXPECT_TRUE(has_error(check_proto(training_model(2, "Adagrad")), "",
                        "imports opset ai.onnx.preview.training 2, newer than bough supports (1)"));
  // Gradient, of the same domain, stays a spec operator bough does not implement: a warning.
  const auto d = check_proto(training_model(1, "Gradient"));
  EXPECT_TRUE(is_valid(d));
  ASSERT_EQ(d.warnings(), 1u);
  EXPECT_NE(d.all()[0].message.find("does not implement ai.onnx.preview.training.Gradient"),
            std::string::npos);
}

}  // namespace
}  // namespace bough::test
