// A weight that every reader keeps a prepared form of is dropped: the plan does not keep it
// (exec::Plan::constant_bytes) and the session holds no reference to it, so the caller's
// Model is its last owner. A weight some reader needs as it is (an Identity output, a Loop
// body or If branch reading it) is kept, and every result stays right.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "bough/session.h"
#include "exec/plan.h"
#include "ir/clone.h"
#include "ir/graph.h"
#include "model_builder.h"
#include "passes/pass.h"
#include "test_paths.h"

namespace bough::test {
namespace {

// X is 3x3 and W 3x4, so that X·W and W + W have one shape (an If's branches may give either).
const Tensor kX = f32({3, 3}, {0.5f, -1, 2, 0.25f, 1.5f, -0.75f, 3, 0, -2});
const Tensor kW = f32({3, 4}, {1, -2, 0.5f, 3, -1, 0.25f, 2, -0.5f, 4, 1, -3, 0.75f});
constexpr size_t kWBytes = 3 * 4 * sizeof(float);

// X·W by the textbook loop, row-major.
std::vector<double> x_times_w() {
  std::vector<double> y(12, 0.0);
  const std::vector<float> x = floats_of(kX), w = floats_of(kW);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 4; ++j)
      for (size_t k = 0; k < 3; ++k) y[i * 4 + j] += double(x[i * 3 + k]) * double(w[k * 4 + j]);
  return y;
}

std::vector<double> w_plus_w() {
  std::vector<double> y;
  for (float v : floats_of(kW)) y.push_back(2.0 * v);
  return y;
}

std::vector<double> repeated(const std::vector<double>& v, size_t times) {
  std::vector<double> out;
  for (size_t t = 0; t < times; ++t) out.insert(out.end(), v.begin(), v.end());
  return out;
}

// The main graph: input X (and "cond" when asked), initializer W, output Y = MatMul(X, W).
GraphBuilder main_graph(bool with_cond = false) {
  GraphBuilder g;
  g.input("X", ElemType::Float, {3, 3});
  if (with_cond) g.input("cond", ElemType::Bool);
  g.initializer("W", kW);
  g.node("MatMul", {"X", "W"}, {"Y"});
  g.output_untyped("Y");
  return g;
}

// A Loop of two iterations over `body_op`(in0, in1) -> its scan output "S".
void add_loop(GraphBuilder& g, const std::string& body_op, const std::string& in0,
              const std::string& in1) {
  g.initializer("trip", Tensor::scalar_i64(2));
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("c", ElemType::Bool);
  body.node("Identity", {"c"}, {"co"});
  body.node(body_op, {in0, in1}, {"s"});
  body.output("co", ElemType::Bool);
  body.output_untyped("s");
  set_graph(g.node("Loop", {"trip", ""}, {"S"}), "body", body);
  g.output_untyped("S");
}

// An If on "cond" whose then branch computes `then_op`(X, W) and else branch `else_op`(W, W).
void add_if(GraphBuilder& g, const std::string& then_op, const std::string& else_op) {
  GraphBuilder then_g("then"), else_g("else");
  then_g.node(then_op, {"X", "W"}, {"t"});
  then_g.output_untyped("t");
  else_g.node(else_op, {else_op == "MatMul" ? "X" : "W", "W"}, {"e"});
  else_g.output_untyped("e");
  auto& node = g.node("If", {"cond"}, {"B"});
  set_graph(node, "then_branch", then_g);
  set_graph(node, "else_branch", else_g);
  g.output_untyped("B");
}

std::string save(const GraphBuilder& g, const std::string& name) {
  return save_model(make_model(g), scratch_dir("constant_release_" + name), "m.onnx");
}

// What the plan of the model at `path` keeps and drops, after the session's default passes.
exec::ConstantBytes constant_bytes(const std::string& path) {
  const Model model = Model::load(path);
  std::shared_ptr<ir::Model> copy = ir::clone_model(model.ir());
  passes::run_pipeline(*copy, passes::basic_pipeline());
  return exec::Plan::compile(*copy->graph, exec::CompileEnv{copy.get()})->constant_bytes();
}

// Whether the caller's W is held by nothing but the caller's Model once a session exists.
bool session_holds_no_w(const std::string& path, Optimization level) {
  const Model model = Model::load(path);
  const ir::Edge* w = nullptr;
  for (const ir::Edge* v : model.ir().graph->initializers)
    if (v->name == "W") w = v;
  EXPECT_TRUE(w && w->data && w->data->unique());
  Session session(model, SessionOptions{1, false, level});
  return w->data->unique();
}

// Runs the model at `path` at 1 and 2 threads (for each cond when `conds` is not empty) and
// expects each output near `want` (one list per run, outputs back to back).
void expect_outputs(const std::string& path, const std::vector<bool>& conds,
                    const std::vector<std::vector<std::vector<double>>>& want) {
  for (int threads : {1, 2}) {
    Session session(Model::load(path), SessionOptions{threads});
    for (size_t r = 0; r < std::max<size_t>(1, conds.size()); ++r) {
      SCOPED_TRACE("threads " + std::to_string(threads) + " run " + std::to_string(r));
      NamedValues feed{{"X", kX}};
      if (!conds.empty()) feed.emplace_back("cond", boolean({}, {conds[r]}));
      for (int again = 0; again < 2; ++again) {  // a second run sees the same kept values
        const NamedValues out = session.run(feed);
        ASSERT_EQ(out.size(), want[r].size());
        for (size_t o = 0; o < out.size(); ++o) {
          const std::vector<double> got = doubles_of(out[o].second.tensor());
          ASSERT_EQ(got.size(), want[r][o].size()) << "output " << o;
          for (size_t i = 0; i < got.size(); ++i)
            EXPECT_NEAR(got[i], want[r][o][i], 1e-5 * (1 + std::abs(want[r][o][i])))
                << "output " << o << " element " << i;
        }
      }
    }
  }
}

TEST(ConstantRelease, AWeightEveryReaderPreparedIsDropped) {
  GraphBuilder g = main_graph();
  g.node("Gemm", {"X", "W"}, {"G"});  // a second reader that prepares it too
  g.output_untyped("G");
  const std::string path = save(g, "all_prepared");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, kWBytes);
  EXPECT_EQ(bytes.kept, 0u);
  EXPECT_TRUE(session_holds_no_w(path, Optimization::basic));
  EXPECT_TRUE(session_holds_no_w(path, Optimization::none));
  expect_outputs(path, {}, {{x_times_w(), x_times_w()}});
}

TEST(ConstantRelease, AnIdentityOutputKeepsTheWeight) {
  GraphBuilder g = main_graph();
  g.node("Identity", {"W"}, {"W_out"});
  g.output_untyped("W_out");
  const std::string path = save(g, "identity");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, 0u);
  EXPECT_EQ(bytes.kept, kWBytes);
  EXPECT_FALSE(session_holds_no_w(path, Optimization::basic));
  std::vector<double> w;
  for (float v : floats_of(kW)) w.push_back(v);
  expect_outputs(path, {}, {{x_times_w(), w}});
}

TEST(ConstantRelease, ALoopBodyReadingTheWeightKeepsIt) {
  GraphBuilder g = main_graph();
  add_loop(g, "Add", "W", "W");
  const std::string path = save(g, "loop_reads");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, 0u);
  EXPECT_EQ(bytes.kept, kWBytes + sizeof(int64_t));  // W and the trip count
  EXPECT_FALSE(session_holds_no_w(path, Optimization::basic));
  expect_outputs(path, {}, {{x_times_w(), repeated(w_plus_w(), 2)}});
}

TEST(ConstantRelease, ALoopBodyThatPreparesTheWeightLetsItGo) {
  GraphBuilder g = main_graph();
  add_loop(g, "MatMul", "X", "W");
  const std::string path = save(g, "loop_prepares");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, kWBytes);
  EXPECT_EQ(bytes.kept, sizeof(int64_t));  // the trip count, which the Loop reads
  EXPECT_TRUE(session_holds_no_w(path, Optimization::basic));
  expect_outputs(path, {}, {{x_times_w(), repeated(x_times_w(), 2)}});
}

TEST(ConstantRelease, AnIfBranchReadingTheWeightKeepsIt) {
  GraphBuilder g = main_graph(true);
  add_if(g, "MatMul", "Add");
  const std::string path = save(g, "if_reads");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, 0u);
  EXPECT_EQ(bytes.kept, kWBytes);
  EXPECT_FALSE(session_holds_no_w(path, Optimization::basic));
  expect_outputs(path, {true, false}, {{x_times_w(), x_times_w()}, {x_times_w(), w_plus_w()}});
}

TEST(ConstantRelease, IfBranchesThatBothPrepareTheWeightLetItGo) {
  GraphBuilder g = main_graph(true);
  add_if(g, "MatMul", "MatMul");
  const std::string path = save(g, "if_prepares");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, kWBytes);
  EXPECT_EQ(bytes.kept, 0u);
  EXPECT_TRUE(session_holds_no_w(path, Optimization::basic));
  expect_outputs(path, {true, false}, {{x_times_w(), x_times_w()}, {x_times_w(), x_times_w()}});
}

// A Gemm whose B was dropped still reports an A that does not fit, naming the node.
TEST(ConstantRelease, AMismatchedInputIsReportedWithoutTheDroppedWeight) {
  GraphBuilder g;
  g.input("X", ElemType::Float, {2, 5}, false);
  g.initializer("W", kW);
  g.node("Gemm", {"X", "W"}, {"Y"}, "proj");
  g.output_untyped("Y");
  const std::string path = save(g, "mismatch");
  EXPECT_EQ(constant_bytes(path).released, kWBytes);
  Session session(Model::load(path));
  try {
    session.run({{"X", f32({2, 5}, std::vector<float>(10, 1.0f))}});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("Gemm \"proj\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3 rows"), std::string::npos) << e.what();
  }
}

// A session given the Model itself (Session(Model&&)) is the weights' last owner: a weight
// every reader prepared is held by no one but this test's own reference once the session
// exists, with no caller's Model to drop (while it plans, each is freed before the next is
// prepared; bench/compare measures that peak). A Model shared with another copy keeps its
// weights for that copy.
TEST(ConstantRelease, ASessionGivenTheModelIsTheWeightsLastOwner) {
  GraphBuilder g = main_graph();
  const std::string path = save(g, "given_model");
  // This test's reference to the loaded W, to see who else holds it.
  auto w_of = [](const Model& m) {
    for (const ir::Edge* v : m.ir().graph->initializers)
      if (v->name == "W") return *v->data;
    return Tensor();
  };
  const NamedValues feed{{"X", kX}};
  auto expect_product = [&](Session& session) {
    const std::vector<double> got = doubles_of(session.run(feed)[0].second.tensor());
    const std::vector<double> want = x_times_w();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5);
  };
  {
    Model model = Model::load(path);
    const Tensor w = w_of(model);
    Session session(std::move(model));
    EXPECT_TRUE(w.unique());
    expect_product(session);
  }
  {
    Model model = Model::load(path);
    const Tensor w = w_of(model);
    const Model shared = model;  // a second owner of the same model
    Session session(std::move(model));
    EXPECT_FALSE(w.unique());
    expect_product(session);
    Session again(shared);
    expect_product(again);
  }
}

// MatMulNBits keeps its weights in its own packed layout, so B, its scales and zero points
// (all initializers) are released. K = 16, N = 2, one block a row: row 0 bytes 0x21 (1 at even
// k, 2 at odd), scale 0.5, zero point 8: 8 (1-8) 0.5 + 8 (2-8) 0.5 = -52 for A of ones; row 1
// bytes 0x53 (3 and 5), scale 2, zero point 3: 8 (3-3) 2 + 8 (5-3) 2 = 32.
TEST(ConstantRelease, MatMulNBitsLetsItsQuantizedWeightsGo) {
  GraphBuilder g;
  g.input("A", ElemType::Float, {1, 16});
  std::vector<uint8_t> b(8, 0x21);
  b.insert(b.end(), 8, 0x53);
  const Dims64 b_dims{2, 1, 8}, z_dims{2};
  g.initializer("B", Tensor::from_vector<uint8_t>(ElemType::UInt8,
                                                  Dims(std::span<const int64_t>(b_dims)), b));
  g.initializer("S", f32({2}, {0.5f, 2}));
  g.initializer("Z", Tensor::from_vector<uint8_t>(ElemType::UInt8,
                                                  Dims(std::span<const int64_t>(z_dims)), {8, 3}));
  onnxpb::NodeProto& node = g.node("MatMulNBits", {"A", "B", "S", "Z"}, {"Y"});
  node.set_domain("com.microsoft");
  set_int(node, "K", 16);
  set_int(node, "N", 2);
  set_int(node, "block_size", 16);
  g.output_untyped("Y");
  onnxpb::ModelProto model = make_model(g);
  onnxpb::OperatorSetIdProto* ms = model.add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  const std::string path = save_model(model, scratch_dir("constant_release_nbits"), "m.onnx");
  const exec::ConstantBytes bytes = constant_bytes(path);
  EXPECT_EQ(bytes.released, 16u + 2 * sizeof(float) + 2u);
  EXPECT_EQ(bytes.kept, 0u);
  for (int threads : {1, 2}) {
    Session session(Model::load(path), SessionOptions{threads});
    const NamedValues out = session.run({{"A", f32({1, 16}, std::vector<float>(16, 1.0f))}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{-52, 32}));
  }
}

}  // namespace
}  // namespace bough::test
