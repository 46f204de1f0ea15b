// FlexAttention (ai.onnx.preview): its modifier subgraphs reading outer values, run twice
// from one plan, grouped-query heads, precisions, and modifiers the checker or the run must
// refuse. Expected values are worked out by hand in the comments.
//
// The common case, B=1, Hq=2, Hkv=1, L=1, S=2, E=4, Ev=1:
//   Q head 0 = [2,0,0,0], head 1 = [4,0,0,0]; K key 0 = [0,0,0,0], key 1 = [1,1,1,1];
//   V = [10, 20]. Both query heads read the one K/V head. Default scale 1/sqrt(4) = 0.5, so
//   the scores are [0, 1] (head 0) and [0, 2] (head 1). With two keys,
//   softmax([a, b]) = [1 - σ(b - a), σ(b - a)], so Y = 10 + 10·σ(b - a):
//   head 0: 10 + 10·σ(1) = 17.310586, head 1: 10 + 10·σ(2) = 18.807971.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "bough/error.h"
#include "bough/session.h"
#include "kernels/convert.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

Tensor q_common() { return f32({1, 2, 1, 4}, {2, 0, 0, 0, 4, 0, 0, 0}); }
Tensor k_common() { return f32({1, 1, 2, 4}, {0, 0, 0, 0, 1, 1, 1, 1}); }
Tensor v_common() { return f32({1, 1, 2, 1}, {10, 20}); }

// A modifier subgraph: one input `x` of type `t` (B, H, L, S symbolic: rank 4, dims open),
// output `out`, its nodes added by the caller.
GraphBuilder modifier(const std::string& name, ElemType t = ElemType::Float) {
  GraphBuilder g(name);
  g.input("x", t, {}, false);
  g.output_untyped("out");
  return g;
}

// main(q, k, v, extra inputs...) -> y = FlexAttention(q, k, v), Q, K and V declared with the
// common case's shapes (or unranked), or other head counts.
struct FlexModel {
  GraphBuilder g{"main"};
  explicit FlexModel(ElemType t, bool ranked = true, int64_t q_heads = 2, int64_t kv_heads = 1) {
    g.input("q", t, {1, q_heads, 1, 4}, ranked).input("k", t, {1, kv_heads, 2, 4}, ranked);
    g.input("v", t, {1, kv_heads, 2, 1}, ranked).output_untyped("y");
  }
  onnxpb::NodeProto& node() { return g.node("FlexAttention", {"q", "k", "v"}, {"y"}, "flex"); }
  std::string save(const std::string& dir) {
    onnxpb::ModelProto m = test::make_model(g, 21, 10);
    for (auto& n : *m.mutable_graph()->mutable_node())
      if (n.op_type() == "FlexAttention") n.set_domain("ai.onnx.preview");
    auto* import = m.add_opset_import();
    import->set_domain("ai.onnx.preview");
    import->set_version(1);
    return test::save_model(m, test::scratch_dir(dir), "m.onnx");
  }
};

// The common case's Q, K and V, in element type `t`.
NamedValues common_feeds(ElemType t = ElemType::Float) {
  return {{"q", kernels::cast(q_common(), t)},
          {"k", kernels::cast(k_common(), t)},
          {"v", kernels::cast(v_common(), t)}};
}

void expect_near_all(const std::vector<float>& got, const std::vector<double>& want,
                     double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST(FlexAttention, DefaultScaleAndGroupedQueryHeads) {
  FlexModel m(ElemType::Float);
  m.node();
  Session s(Model::load(m.save("flex_plain")));
  const Tensor y = s.run(common_feeds())[0].second.tensor();
  EXPECT_EQ(y.shape(), (Dims{1, 2, 1, 1}));
  expect_near_all(floats_of(y), {10 + 10 * sigmoid(1), 10 + 10 * sigmoid(2)});
}

TEST(FlexAttention, ScaleAttributeReplacesTheDefault) {
  // scale 2 in place of 0.5: Q·K = [0, 2] and [0, 4], so the scores are [0, 4] and [0, 8].
  FlexModel m(ElemType::Float);
  test::set_float(m.node(), "scale", 2.0f);
  Session s(Model::load(m.save("flex_scale")));
  expect_near_all(floats_of(s.run(common_feeds())[0].second.tensor()),
                  {10 + 10 * sigmoid(4), 10 + 10 * sigmoid(8)});
}

TEST(FlexAttention, ScoreModReadsAnOuterInputAnewOnEveryRun) {
  // score_mod adds `bias` (a main-graph input, shape [2], broadcast along the keys): scores
  // become [0 + b0, 1 + b1] and [0 + b0, 2 + b1], so Y = 10 + 10·σ(1 + b1 - b0) and
  // 10 + 10·σ(2 + b1 - b0). bias [1, -1]: σ(-1), σ(0) = 0.5; bias [0, 2]: σ(3), σ(4).
  FlexModel m(ElemType::Float);
  m.g.input("bias", ElemType::Float, {2});
  GraphBuilder mod = modifier("add_bias");
  mod.node("Add", {"x", "bias"}, {"out"});
  test::set_graph(m.node(), "score_mod", mod);
  Session s(Model::load(m.save("flex_capture")));
  NamedValues feeds = common_feeds();
  feeds.emplace_back("bias", f32({2}, {1, -1}));
  expect_near_all(floats_of(s.run(feeds)[0].second.tensor()), {10 + 10 * sigmoid(-1), 15});
  feeds.back().second = f32({2}, {0, 2});
  expect_near_all(floats_of(s.run(feeds)[0].second.tensor()),
                  {10 + 10 * sigmoid(3), 10 + 10 * sigmoid(4)});
}

TEST(FlexAttention, InsideALoopTheScoreModReadsTheBodysValueOfEachIteration) {
  // Loop of 2 iterations; the body computes bias = i * [1, -1] and runs FlexAttention with
  // score_mod Add(x, bias), a capture of a body value two levels down, which changes every
  // iteration. Scan output: i = 0 gives the common case, 10 + 10·σ(1) and 10 + 10·σ(2);
  // i = 1 gives bias [1, -1], as in the test above: 10 + 10·σ(-1) and 15.
  FlexModel m(ElemType::Float);
  m.g.initializer("M", test::i64({}, {2}));
  m.g.initializer("sign", f32({2}, {1, -1}));
  GraphBuilder mod = modifier("add_bias");
  mod.node("Add", {"x", "bias"}, {"out"});
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cond", ElemType::Bool);
  body.output_untyped("cond_out").output_untyped("y_i");
  body.node("Identity", {"cond"}, {"cond_out"});
  test::set_int(body.node("Cast", {"i"}, {"i_f"}), "to", 1);
  body.node("Mul", {"i_f", "sign"}, {"bias"});
  onnxpb::NodeProto& flex = body.node("FlexAttention", {"q", "k", "v"}, {"y_i"}, "flex");
  flex.set_domain("ai.onnx.preview");
  test::set_graph(flex, "score_mod", mod);
  test::set_graph(m.g.node("Loop", {"M", ""}, {"y"}, "loop"), "body", body);
  Session s(Model::load(m.save("flex_in_loop")));
  const Tensor y = s.run(common_feeds())[0].second.tensor();
  EXPECT_EQ(y.shape(), (Dims{2, 1, 2, 1, 1}));
  expect_near_all(floats_of(y),
                  {10 + 10 * sigmoid(1), 10 + 10 * sigmoid(2), 10 + 10 * sigmoid(-1), 15});
}

TEST(FlexAttention, ScoreModMasksWithMinusInfinity) {
  // score_mod keeps the scores where `keep` (an outer initializer, [1, 0]) is true and
  // writes -inf elsewhere: only key 0 is left, so Y = V[0] = 10 for both heads.
  FlexModel m(ElemType::Float);
  m.g.initializer("keep", test::boolean({2}, {true, false}));
  m.g.initializer("minus_inf", f32({}, {-INFINITY}));
  GraphBuilder mod = modifier("mask");
  mod.node("Where", {"keep", "x", "minus_inf"}, {"out"});
  test::set_graph(m.node(), "score_mod", mod);
  Session s(Model::load(m.save("flex_mask")));
  expect_near_all(floats_of(s.run(common_feeds())[0].second.tensor()), {10, 10});
}

TEST(FlexAttention, ProbModScalesTheWeightsAndRunsOnItsOwnThreads) {
  // prob_mod multiplies the probabilities by 3 (a subgraph initializer) and squares them:
  // head 0 has p = [1 - σ(1), σ(1)], so Y = 9·(10·(1 - σ(1))² + 20·σ(1)²), likewise head 1.
  FlexModel m(ElemType::Float);
  GraphBuilder mod = modifier("triple_square");
  mod.initializer("three", f32({}, {3}));
  mod.node("Mul", {"x", "three"}, {"t"});
  mod.node("Mul", {"t", "t"}, {"out"});
  test::set_graph(m.node(), "prob_mod", mod);
  Session s(Model::load(m.save("flex_prob")), SessionOptions{2});
  auto y = [](double z) {
    const double p1 = sigmoid(z), p0 = 1 - p1;
    return 9 * (10 * p0 * p0 + 20 * p1 * p1);
  };
  expect_near_all(floats_of(s.run(common_feeds())[0].second.tensor()), {y(1), y(2)}, 1e-4);
}

TEST(FlexAttention, Float16InputsComputeInFloatAndRoundOnce) {
  // The float results 17.310586 and 18.807971 round to the float16 grid of step 1/64 there:
  // 1108/64 = 17.3125 and 1204/64 = 18.8125.
  FlexModel m(ElemType::Float16);
  m.node();
  Session s(Model::load(m.save("flex_fp16")));
  const Tensor y = s.run(common_feeds(ElemType::Float16))[0].second.tensor();
  EXPECT_EQ(y.type(), ElemType::Float16);
  EXPECT_EQ(floats_of(kernels::cast(y, ElemType::Float)), (std::vector<float>{17.3125f, 18.8125f}));
}

TEST(FlexAttention, SoftmaxPrecisionFloat16GivesFloat16BlocksAndRoundsTheResult) {
  // Float inputs, softmax_precision float16 (10): score_mod receives a float16 block (it
  // adds a float16 0.5, which the softmax cancels), and probs · V is rounded to float16
  // before it becomes the float Y: 17.310586 and 18.807971 on the float16 grid of step
  // 1/64 are 17.3125 and 18.8125 (rounding the probabilities first moves Y by about 0.002).
  FlexModel m(ElemType::Float);
  m.g.initializer("half", kernels::cast(f32({}, {0.5f}), ElemType::Float16));
  GraphBuilder mod = modifier("shift", ElemType::Float16);
  mod.node("Add", {"x", "half"}, {"out"});
  onnxpb::NodeProto& n = m.node();
  test::set_int(n, "softmax_precision", 10);
  test::set_graph(n, "score_mod", mod);
  Session s(Model::load(m.save("flex_precision16")));
  const Tensor y = s.run(common_feeds())[0].second.tensor();
  EXPECT_EQ(y.type(), ElemType::Float);
  EXPECT_EQ(floats_of(y), (std::vector<float>{17.3125f, 18.8125f}));
}

TEST(FlexAttention, DoubleInputsGiveDoubleBlocksToTheModifiers) {
  // A double model's score_mod sees a double block: adding 0.5 to every score changes
  // nothing after the softmax (the difference of the two scores stays).
  FlexModel m(ElemType::Double);
  m.g.initializer("half", kernels::cast(f32({}, {0.5f}), ElemType::Double));
  GraphBuilder mod = modifier("shift", ElemType::Double);
  mod.node("Add", {"x", "half"}, {"out"});
  test::set_graph(m.node(), "score_mod", mod);
  Session s(Model::load(m.save("flex_double")));
  const Tensor y = s.run(common_feeds(ElemType::Double))[0].second.tensor();
  EXPECT_EQ(y.type(), ElemType::Double);
  const std::vector<double> got = test::doubles_of(y);
  EXPECT_NEAR(got[0], 10 + 10 * sigmoid(1), 1e-12);
  EXPECT_NEAR(got[1], 10 + 10 * sigmoid(2), 1e-12);
}

// Expects the check to refuse the model with a message holding `fragment`.
void expect_refused(FlexModel& m, const std::string& dir, const std::string& fragment) {
  try {
    Session s(Model::load(m.save(dir)));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// Expects the check to refuse a float model whose `attr` modifier is `mod`.
void expect_modifier_refused(const char* attr, const GraphBuilder& mod, const std::string& dir,
                             const std::string& fragment) {
  FlexModel m(ElemType::Float);
  test::set_graph(m.node(), attr, mod);
  expect_refused(m, dir, fragment);
}

TEST(FlexAttention, CheckRefusesModifiersOfTheWrongTypeOrArity) {
  GraphBuilder wrong_type = modifier("wrong_type", ElemType::Double);  // declares double
  wrong_type.node("Identity", {"x"}, {"out"});
  expect_modifier_refused("score_mod", wrong_type, "flex_wrong_type",
                          "score_mod: input 'x' is declared tensor(double)[*], but receives "
                          "tensor(float)[1,2,1,2]");
  GraphBuilder to_int = modifier("to_int");  // returns int64
  test::set_int(to_int.node("Cast", {"x"}, {"out"}), "to", 7);
  expect_modifier_refused("prob_mod", to_int, "flex_to_int",
                          "prob_mod must return tensor(float)[1,2,1,2], but it yields "
                          "tensor(int64)[1,2,1,2]");
  GraphBuilder rank3("rank3");  // declares a rank-3 input
  rank3.input("x", ElemType::Float, {1, 2, 1}).output_untyped("out");
  rank3.node("Identity", {"x"}, {"out"});
  expect_modifier_refused("score_mod", rank3, "flex_rank3",
                          "score_mod declares its input tensor(float)[1,2,1], but the score block "
                          "is tensor(float)[1,2,1,2]");
  GraphBuilder two_inputs = modifier("two_inputs");
  two_inputs.input("x2", ElemType::Float, {}, false);
  two_inputs.node("Add", {"x", "x2"}, {"out"});
  expect_modifier_refused("score_mod", two_inputs, "flex_two_inputs",
                          "score_mod must take one input and yield one output, got 2 and 1");
  {  // softmax_precision int64.
    FlexModel m(ElemType::Float);
    test::set_int(m.node(), "softmax_precision", 7);
    expect_refused(m, "flex_precision", "softmax_precision must be float");
  }
  {  // 3 query heads over 2 key/value heads, known from the declared shapes.
    FlexModel m(ElemType::Float, true, 3, 2);
    m.node();
    expect_refused(m, "flex_heads", "q_num_heads (3) to be a multiple of kv_num_heads (2)");
  }
}

TEST(FlexAttention, RunRefusesBadShapesNamingTheNode) {
  // Shapes unknown to the check: a score_mod that doubles the keys (Concat along the last
  // axis) and Q and K of different head sizes are refused when the node runs.
  FlexModel m(ElemType::Float, false);
  GraphBuilder mod = modifier("widen");
  test::set_int(mod.node("Concat", {"x", "x"}, {"out"}), "axis", 3);
  test::set_graph(m.node(), "score_mod", mod);
  const std::string path = m.save("flex_bad_shapes");
  Session s(Model::load(path));
  try {
    s.run(common_feeds());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("flex"), std::string::npos) << what;
    EXPECT_NE(what.find("score_mod must return a tensor(float) [1,2,1,2]"), std::string::npos)
        << what;
  }
  NamedValues feeds = common_feeds();
  feeds[1].second = f32({1, 1, 2, 3}, {0, 0, 0, 1, 1, 1});
  test::expect_bad_input([&] { s.run(feeds); });
  // 2 query heads over 3 key/value heads.
  feeds = common_feeds();
  feeds[1].second = f32({1, 3, 2, 4}, std::vector<float>(24, 0));
  feeds[2].second = f32({1, 3, 2, 1}, std::vector<float>(6, 0));
  test::expect_bad_input([&] { s.run(feeds); });
}

}  // namespace
}  // namespace bough
