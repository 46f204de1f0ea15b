// The random operators: a seed repeats values across sessions, runs and thread counts; no
// seed draws new values on every run (so nothing folds them); each output has the
// distribution, support, type and shape the spec gives. Statistical checks use fixed seeds,
// so their outcome never changes; the false-failure rate stated with each is the chance that
// a correct operator fails it for a seed picked at random (4 standard errors: 6e-5; the
// chi-square bounds are the 1 - 1e-4 quantiles).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"
#include "ops/evaluate.h"
#include "ops/registry.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Dims64;
using test::doubles_of;
using test::expect_bad_input;
using test::expect_invalid_model;
using test::f32;
using test::set_float;
using test::set_int;
using test::set_ints;

Tensor run1(const std::string& op, const test::NamedTensors& ins, const test::Attrs& attrs,
            int64_t opset = 22, int threads = 1) {
  return test::run_node(op, ins, 1, attrs, opset, "random_ops", threads)[0];
}

test::Attrs shaped(Dims64 shape, std::function<void(onnxpb::NodeProto&)> more = {}) {
  return [shape, more](onnxpb::NodeProto& n) {
    set_ints(n, "shape", shape);
    if (more) more(n);
  };
}

test::Attrs seeded(float seed, test::Attrs more = {}) {
  return [seed, more](onnxpb::NodeProto& n) {
    set_float(n, "seed", seed);
    if (more) more(n);
  };
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}

double chi_square(const std::vector<double>& counts, const std::vector<double>& expected) {
  double chi = 0;
  for (size_t i = 0; i < counts.size(); ++i)
    chi += (counts[i] - expected[i]) * (counts[i] - expected[i]) / expected[i];
  return chi;
}

// -------------------------------------------------------------------------------------
// Seeds

TEST(RandomOps, ASeedGivesTheSameValuesAcrossSessionsAndThreadCounts) {
  const test::Attrs attrs = shaped({64, 64}, [](onnxpb::NodeProto& n) { set_float(n, "seed", 3); });
  const Tensor a = run1("RandomUniform", {}, attrs, 22, 1);
  const Tensor b = run1("RandomUniform", {}, attrs, 22, 2);
  EXPECT_EQ(doubles_of(a), doubles_of(b));
  const Tensor other = run1(
      "RandomUniform", {}, shaped({64, 64}, [](onnxpb::NodeProto& n) { set_float(n, "seed", 4); }));
  EXPECT_NE(doubles_of(a), doubles_of(other));
}

// One session run twice: a seeded node repeats, an unseeded one draws anew (which also
// shows it was not folded into a constant by the session's passes).
TEST(RandomOps, RunsOfOneSessionRepeatOnlyWithASeed) {
  test::GraphBuilder g;
  g.output_untyped("fixed");
  g.output_untyped("fresh");
  onnxpb::NodeProto& a = g.node("RandomNormal", {}, {"fixed"}, "a");
  set_ints(a, "shape", {100});
  set_float(a, "seed", 1.5f);
  onnxpb::NodeProto& b = g.node("RandomNormal", {}, {"fresh"}, "b");
  set_ints(b, "shape", {100});
  const std::string path =
      test::save_model(test::make_model(g, 22, 10), test::scratch_dir("random_runs"), "m.onnx");
  Session session(Model::load(path));
  const NamedValues first = session.run({}), second = session.run({});
  EXPECT_EQ(doubles_of(first[0].second.tensor()), doubles_of(second[0].second.tensor()));
  EXPECT_NE(doubles_of(first[1].second.tensor()), doubles_of(second[1].second.tensor()));
}

// A Loop of 3 iterations stacking a RandomUniform [4] of each: with a seed the stream
// restarts on every run of the node, so the 3 rows are equal; without one they differ.
std::vector<double> loop_rows(bool seeded) {
  test::GraphBuilder body("body");
  body.input("i", ElemType::Int64, {});
  body.input("c", ElemType::Bool, {});
  body.output("c_out", ElemType::Bool, {});
  body.output("r", ElemType::Float, {4});
  body.node("Identity", {"c"}, {"c_out"});
  onnxpb::NodeProto& draw = body.node("RandomUniform", {}, {"r"}, "draw");
  set_ints(draw, "shape", {4});
  if (seeded) set_float(draw, "seed", 9);
  test::GraphBuilder g;
  g.input("n", ElemType::Int64, {});
  g.output("rows", ElemType::Float, {3, 4});
  test::set_graph(g.node("Loop", {"n", ""}, {"rows"}, "loop"), "body", body);
  const std::string path =
      test::save_model(test::make_model(g, 22, 10), test::scratch_dir("random_loop"), "m.onnx");
  Session session(Model::load(path));
  return doubles_of(session.run({{"n", Tensor::scalar_i64(3)}})[0].second.tensor());
}

TEST(RandomOps, ASeededNodeInALoopBodyRepeatsEachIteration) {
  const std::vector<double> same = loop_rows(true), fresh = loop_rows(false);
  ASSERT_EQ(same.size(), 12u);
  for (size_t k = 4; k < 12; ++k) EXPECT_EQ(same[k], same[k % 4]) << k;
  EXPECT_NE(std::vector<double>(fresh.begin(), fresh.begin() + 4),
            std::vector<double>(fresh.begin() + 4, fresh.begin() + 8));
}

TEST(RandomOps, NeverEvaluatedAtCheckTimeOrFolded) {
  for (const char* name : {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                           "Bernoulli", "Multinomial"}) {
    const ops::OpDef* def = ops::find_op("", name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_FALSE(ops::evaluable(*def)) << name;
    EXPECT_TRUE(ops::is_random_op("", name)) << name;
  }
  EXPECT_FALSE(ops::is_random_op("", "Relu"));
  EXPECT_FALSE(ops::is_random_op("com.example", "RandomNormal"));
  // The property lives on the definitions: these six and no other operator carry it
  // (Dropout draws only in training and is kept from folding by name).
  std::vector<std::string> marked;
  for (const ops::OpDef* def : ops::all_ops())
    if (def->nondeterministic) marked.emplace_back(def->name);
  std::sort(marked.begin(), marked.end());
  EXPECT_EQ(marked,
            (std::vector<std::string>{"Bernoulli", "Multinomial", "RandomNormal",
                                      "RandomNormalLike", "RandomUniform", "RandomUniformLike"}));
  EXPECT_FALSE(ops::evaluable(*ops::find_op("", "Dropout")));
}

// -------------------------------------------------------------------------------------
// Distributions

// 10,000 draws in [-2, 3): all inside, the mean within 4 standard errors (5 / sqrt(12) /
// 100) of 0.5, and 5 unit bins under chi-square with 4 degrees of freedom (bound 23.51).
TEST(RandomOps, RandomUniformIsUniformOnLowHigh) {
  const Tensor y = run1("RandomUniform", {}, shaped({100, 100}, [](onnxpb::NodeProto& n) {
                          set_float(n, "seed", 10);
                          set_float(n, "low", -2);
                          set_float(n, "high", 3);
                        }));
  ASSERT_EQ(y.type(), ElemType::Float);
  ASSERT_EQ(y.shape(), (Dims{100, 100}));
  const std::vector<double> v = doubles_of(y);
  std::vector<double> counts(5, 0);
  for (double x : v) {
    ASSERT_GE(x, -2.0);
    ASSERT_LT(x, 3.0);
    counts[static_cast<size_t>(x + 2)] += 1;
  }
  EXPECT_NEAR(mean_of(v), 0.5, 4 * 5 / std::sqrt(12.0) / 100);
  EXPECT_LT(chi_square(counts, std::vector<double>(5, 2000)), 23.51);
}

// 10,000 draws of mean 3 and scale 2 as doubles: the mean within 4 standard errors (2 / 100)
// and the variance within 4 standard errors (4 * sqrt(2 / n)) of 4.
TEST(RandomOps, RandomNormalHasItsMeanAndScale) {
  const Tensor y = run1("RandomNormal", {}, shaped({100, 100}, [](onnxpb::NodeProto& n) {
                          set_float(n, "seed", 21);
                          set_float(n, "mean", 3);
                          set_float(n, "scale", 2);
                          set_int(n, "dtype", 11);
                        }));
  ASSERT_EQ(y.type(), ElemType::Double);
  const std::vector<double> v = doubles_of(y);
  EXPECT_NEAR(mean_of(v), 3.0, 4 * 2.0 / 100);
  EXPECT_NEAR(variance_of(v), 4.0, 4 * 4 * std::sqrt(2.0 / 10000));
}

// Probabilities 0 and 1 give 0 and 1 exactly; 10,000 draws at 0.3 are all 0 or 1 with a
// mean within 4 standard errors (sqrt(0.21) / 100) of 0.3.
TEST(RandomOps, BernoulliDrawsOnesWithTheGivenProbability) {
  const Tensor edges = run1("Bernoulli", {{"p", f32({6}, {0, 1, 1, 0, 0, 1})}}, seeded(1));
  EXPECT_EQ(doubles_of(edges), (std::vector<double>{0, 1, 1, 0, 0, 1}));
  const Tensor y =
      run1("Bernoulli", {{"p", f32({100, 100}, std::vector<float>(10000, 0.3f))}}, seeded(2));
  ASSERT_EQ(y.type(), ElemType::Float);
  const std::vector<double> v = doubles_of(y);
  for (double x : v) ASSERT_TRUE(x == 0 || x == 1) << x;
  EXPECT_NEAR(mean_of(v), 0.3, 4 * std::sqrt(0.21) / 100);
}

// Row 0: log-probabilities of (0.1, 0.2, 0.7) plus 5 (unnormalized); row 1: (0.5, 0.5, 0)
// with log 0 = -inf. 20,000 samples per row: row 0's class counts under chi-square with 2
// degrees of freedom (bound 18.42); row 1 never draws class 2, and its two classes pass
// chi-square with 1 degree of freedom (bound 15.14).
TEST(RandomOps, MultinomialSamplesTheGivenLogProbabilities) {
  const float inf = INFINITY;
  const Tensor logits = f32({2, 3}, {std::log(0.1f) + 5, std::log(0.2f) + 5, std::log(0.7f) + 5,
                                     std::log(0.5f), std::log(0.5f), -inf});
  const Tensor y = run1("Multinomial", {{"x", logits}},
                        seeded(8, [](onnxpb::NodeProto& n) { set_int(n, "sample_size", 20000); }));
  ASSERT_EQ(y.type(), ElemType::Int32);  // the default dtype
  ASSERT_EQ(y.shape(), (Dims{2, 20000}));
  std::vector<std::vector<double>> counts(2, std::vector<double>(3, 0));
  const std::vector<double> v = doubles_of(y);
  for (size_t i = 0; i < v.size(); ++i) counts[i / 20000][static_cast<size_t>(v[i])] += 1;
  EXPECT_LT(chi_square(counts[0], {2000, 4000, 14000}), 18.42);
  EXPECT_EQ(counts[1][2], 0);
  EXPECT_LT(chi_square({counts[1][0], counts[1][1]}, {10000, 10000}), 15.14);
}

TEST(RandomOps, MultinomialDtypeAndBadInputs) {
  const Tensor y = run1("Multinomial", {{"x", f32({1, 2}, {0, 0})}}, [](onnxpb::NodeProto& n) {
    set_int(n, "dtype", 7);
    set_int(n, "sample_size", 4);
  });
  EXPECT_EQ(y.type(), ElemType::Int64);
  EXPECT_EQ(y.shape(), (Dims{1, 4}));
  for (double c : doubles_of(y)) EXPECT_TRUE(c == 0 || c == 1);
  expect_invalid_model([] {
    run1("Multinomial", {{"x", f32({1, 2}, {0, 0})}},
         [](onnxpb::NodeProto& n) { set_int(n, "dtype", 1); });
  });
  expect_invalid_model([] { run1("Multinomial", {{"x", f32({2}, {0, 0})}}, {}); });
  expect_invalid_model([] {
    run1("Multinomial", {{"x", f32({1, 2}, {0, 0})}},
         [](onnxpb::NodeProto& n) { set_int(n, "sample_size", 0); });
  });
  expect_bad_input([] {
    run1("Multinomial", {{"x", f32({1, 2}, {0, 0})}},
         [](onnxpb::NodeProto& n) { set_int(n, "sample_size", int64_t{1} << 62); });
  });
  // A row of -inf has nothing to draw from.
  expect_bad_input([] { run1("Multinomial", {{"x", f32({1, 2}, {-INFINITY, -INFINITY})}}, {}); });
}

TEST(RandomOps, BernoulliTypesAndBadProbabilities) {
  const Tensor b = run1("Bernoulli", {{"p", f32({3}, {1, 0, 1})}},
                        [](onnxpb::NodeProto& n) { set_int(n, "dtype", 9); });
  ASSERT_EQ(b.type(), ElemType::Bool);
  EXPECT_EQ(doubles_of(b), (std::vector<double>{1, 0, 1}));
  const Tensor i = run1(
      "Bernoulli", {{"p", f32({2}, {0, 1})}}, [](onnxpb::NodeProto& n) { set_int(n, "dtype", 7); },
      15);
  EXPECT_EQ(i.type(), ElemType::Int64);
  EXPECT_EQ(doubles_of(i), (std::vector<double>{0, 1}));
  expect_bad_input([] { run1("Bernoulli", {{"p", f32({2}, {0.5f, 1.5f})}}, {}); });
  expect_bad_input([] { run1("Bernoulli", {{"p", f32({1}, {NAN})}}, {}); });
  // float8e4m3fn is no output type of Bernoulli.
  expect_invalid_model([] {
    run1("Bernoulli", {{"p", f32({1}, {0.5f})}},
         [](onnxpb::NodeProto& n) { set_int(n, "dtype", 17); });
  });
}

// -------------------------------------------------------------------------------------
// Types

TEST(RandomOps, LikeFormsTakeTheInputsTypeUnlessDtypeIsGiven) {
  const Tensor half = Tensor::zeros(ElemType::Float16, Dims{3, 4});
  const Tensor u = run1("RandomUniformLike", {{"x", half}}, seeded(1));
  EXPECT_EQ(u.type(), ElemType::Float16);
  EXPECT_EQ(u.shape(), (Dims{3, 4}));
  const Tensor ints = Tensor::zeros(ElemType::Int32, Dims{2, 5});
  const Tensor n = run1("RandomNormalLike", {{"x", ints}},
                        [](onnxpb::NodeProto& p) { set_int(p, "dtype", 11); });
  EXPECT_EQ(n.type(), ElemType::Double);
  EXPECT_EQ(n.shape(), (Dims{2, 5}));
  // An int32 input leaves no float type to take: dtype is needed.
  expect_invalid_model([&] { run1("RandomNormalLike", {{"x", ints}}, {}); });
  // bfloat16 joins the output types at version 22.
  auto bf16 = [](onnxpb::NodeProto& p) { set_int(p, "dtype", 16); };
  expect_invalid_model([&] { run1("RandomUniformLike", {{"x", half}}, bf16, 21); });
  EXPECT_EQ(run1("RandomUniformLike", {{"x", half}}, bf16, 22).type(), ElemType::BFloat16);
}

TEST(RandomOps, RandomNormalAndUniformAttributes) {
  const Tensor y = run1("RandomNormal", {}, shaped({2, 3}));
  EXPECT_EQ(y.type(), ElemType::Float);  // the default dtype
  EXPECT_EQ(y.shape(), (Dims{2, 3}));
  // An integer dtype, a missing shape, an empty [low, high): refused by the check.
  expect_invalid_model(
      [] { run1("RandomNormal", {}, shaped({2}, [](auto& n) { set_int(n, "dtype", 6); })); });
  expect_invalid_model([] { run1("RandomUniform", {}, {}); });
  // A shape too large to hold is refused when the node runs, not a crash.
  expect_bad_input([] { run1("RandomNormal", {}, shaped({int64_t{1} << 30, int64_t{1} << 30})); });
  expect_invalid_model([] {
    run1("RandomUniform", {}, shaped({2}, [](auto& n) {
           set_float(n, "low", 1);
           set_float(n, "high", 1);
         }));
  });
}

// Output types by inference alone (declarations ignored), symbolic dims kept.
TEST(RandomOps, InferenceGivesTypesAndShapes) {
  test::GraphBuilder g;
  g.input("p", ElemType::Double, {1, 4});
  g.name_input_dim(0, 0, "N");
  for (const char* out : {"normal", "like", "bern", "multi"}) g.output_untyped(out);
  set_ints(g.node("RandomNormal", {}, {"normal"}, "a"), "shape", {5, 0, 2});
  set_int(g.node("RandomUniformLike", {"p"}, {"like"}, "b"), "dtype", 10);
  set_int(g.node("Bernoulli", {"p"}, {"bern"}, "c"), "dtype", 6);
  set_int(g.node("Multinomial", {"p"}, {"multi"}, "d"), "sample_size", 7);
  const std::string path =
      test::save_model(test::make_model(g, 22, 10), test::scratch_dir("random_infer"), "m.onnx");
  std::unique_ptr<ir::Model> model = onnx::read_model_file(path);
  infer::ValidateOptions options;
  options.infer.refine_with_declarations = false;
  const infer::Validation v = infer::validate(*model, options);
  auto type = [&](size_t k) { return ir::to_string(v.types.type_of(model->graph->outputs.at(k))); };
  EXPECT_EQ(type(0), "tensor(float)[5,0,2]");
  EXPECT_EQ(type(1), "tensor(float16)[N,4]");
  EXPECT_EQ(type(2), "tensor(int32)[N,4]");
  EXPECT_EQ(type(3), "tensor(int32)[N,7]");
}

}  // namespace
}  // namespace bough
