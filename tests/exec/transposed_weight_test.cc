// A constant Transpose(W) feeding the B of a MatMul (A of any rank), a Gemm or a FusedMatMul
// never becomes a transposed copy of W: transpose-gemm runs before fold-constants and folds
// the Transpose into transB, the kernel packs W straight from its own layout, and the plan
// then drops W (Plan::constant_bytes), or keeps W itself when another reader needs it as it is.
// Every result matches the unoptimized path and a reference loop at 1 and 2 threads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bough/session.h"
#include "exec/plan.h"
#include "ir/clone.h"
#include "ir/graph.h"
#include "passes/pass.h"
#include "passes/pass_test_util.h"
#include "passes/rewrite.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// What the plan of the model at `path` keeps and drops after the sessions' default pipeline
// (all: transpose-matmul writes the FusedMatMuls), and the names of the initializers the
// optimized model has left.
struct Planned {
  exec::ConstantBytes bytes;
  std::vector<std::string> initializers;
  int transposes = 0;
  bool shares_w = false;  // the optimized model's W is the loaded W's buffer, not a copy
};

Planned plan_of(const std::string& path) {
  const Model model = Model::load(path);
  std::shared_ptr<ir::Model> copy = ir::clone_model(model.ir());
  passes::run_pipeline(*copy, passes::all_pipeline());
  Planned p;
  const float* loaded_w = nullptr;
  for (const ir::Edge* e : model.ir().graph->initializers)
    if (e->name == "W") loaded_w = e->data->data<float>();
  for (const ir::Edge* e : copy->graph->initializers) {
    p.initializers.push_back(e->name);
    if (e->name == "W") p.shares_w = e->data->data<float>() == loaded_w;
  }
  passes::for_each_graph(*copy, [&](ir::Graph& g) {
    for (const auto& n : g.nodes) p.transposes += n->op_type == "Transpose";
  });
  p.bytes = exec::Plan::compile(*copy->graph, exec::CompileEnv{copy.get()})->constant_bytes();
  return p;
}

// y = a · wᵀ for `a` of shape [..., k] and w [n, k], by the textbook loop in double.
std::vector<float> times_w_transposed(const Tensor& a, const Tensor& w, float alpha = 1.0f) {
  const int64_t n = w.dim(0), k = w.dim(1), rows = k == 0 ? 0 : a.numel() / k;
  const std::vector<float> av = floats_of(a), wv = floats_of(w);
  std::vector<float> y(static_cast<size_t>(rows * n));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(av[r * k + p]) * wv[j * k + p];
      y[r * n + j] = static_cast<float>(alpha * s);
    }
  return y;
}

// Runs the model at `path` at every optimization level and 1 and 2 threads; expects `want`.
void expect_output(const std::string& path, const test::NamedTensors& feed,
                   const std::vector<float>& want, int64_t k) {
  for (Optimization level : {Optimization::none, Optimization::basic, Optimization::all})
    for (int threads : {1, 2}) {
      SCOPED_TRACE("level " + std::to_string(static_cast<int>(level)) + ", threads " +
                   std::to_string(threads));
      SessionOptions options;
      options.optimization = level;
      options.threads = threads;
      Session session(Model::load(path), options);
      NamedValues values;
      for (const auto& [name, t] : feed) values.emplace_back(name, Value(t));
      for (int again = 0; again < 2; ++again) {  // the packed weight serves every run
        const std::vector<float> got = floats_of(session.run(values)[0].second.tensor());
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5 * (1 + k)) << "at " << i;
      }
    }
}

// Y = MatMul(A, Transpose(W)) with A of rank 1 to 4 and W [n, k] an initializer, as PyTorch
// exports nn.Linear without constant folding.
TEST(TransposedWeight, MatMulOfAnyRankPacksTheWeightAsItIs) {
  test::Rng rng(1307);
  for (int trial = 0; trial < 16; ++trial) {
    SCOPED_TRACE(trial);
    const int64_t k = rng.uniform(1, 40), n = rng.uniform(1, 33);
    test::Dims64 a_dims;
    for (int64_t r = rng.uniform(0, 3); r > 0; --r) a_dims.push_back(rng.uniform(1, 4));
    a_dims.push_back(k);
    const Tensor a = test::random_floats(Dims(std::span<const int64_t>(a_dims)), rng);
    const Tensor w = test::random_floats({n, k}, rng);
    GraphBuilder g("main");
    g.input("A", ElemType::Float, a_dims);
    g.initializer("W", w);
    test::set_ints(g.node("Transpose", {"W"}, {"Wt"}), "perm", {1, 0});
    g.node("MatMul", {"A", "Wt"}, {"Y"});
    g.output("Y", ElemType::Float, {}, false);
    const std::string path = test::save_scratch(g, "transposed_weight_matmul");

    const Planned p = plan_of(path);
    EXPECT_EQ(p.transposes, 0);
    EXPECT_EQ(p.initializers, std::vector<std::string>{"W"});
    EXPECT_TRUE(p.shares_w);
    EXPECT_EQ(p.bytes.kept, 0u);
    EXPECT_EQ(p.bytes.released, static_cast<size_t>(n * k) * sizeof(float));
    expect_output(path, {{"A", a}}, times_w_transposed(a, w), k);
  }
}

// Y = Gemm(A, Transpose(W), C) and Z = FusedMatMul(A3, Transpose(V), alpha) of a 3-D A3, in
// an If's then-branch (the weights captured from the main graph).
TEST(TransposedWeight, GemmAndFusedMatMulInABranchPackTheWeightsAsTheyAre) {
  const Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor a3 = f32({2, 1, 3}, {1, -1, 2, 0.5f, 3, -2});
  const Tensor w = f32({2, 3}, {1, 0, 1, 0, 1, 1});  // Wᵀ is 3x2
  const Tensor v = f32({4, 3}, {1, 2, 3, 0, 0, 1, -1, 1, 0, 2, 2, 2});
  const Tensor c = f32({2}, {10, 20});
  GraphBuilder then_g("then_g");
  then_g.node("Transpose", {"W"}, {"Wt"});
  then_g.node("Gemm", {"A", "Wt", "C"}, {"G"});
  then_g.node("Transpose", {"V"}, {"Vt"});
  auto& fused = then_g.node("FusedMatMul", {"A3", "Vt"}, {"F"});
  fused.set_domain("com.microsoft");
  test::set_float(fused, "alpha", 0.5f);
  then_g.node("Flatten", {"F"}, {"Ff"});
  then_g.node("Concat", {"G", "Ff"}, {"T"});
  test::set_int(then_g.graph_node_last(), "axis", 1);
  then_g.output("T", ElemType::Float, {2, 6});
  GraphBuilder else_g("else_g");
  else_g.node("Identity", {"Z"}, {"E"});
  else_g.output("E", ElemType::Float, {2, 6});
  GraphBuilder g("main");
  g.input("A", ElemType::Float, {2, 3})
      .input("A3", ElemType::Float, {2, 1, 3})
      .input("Z", ElemType::Float, {2, 6})
      .input("p", ElemType::Bool);
  g.initializer("W", w).initializer("V", v).initializer("C", c);
  g.node("If", {"p"}, {"R"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output("R", ElemType::Float, {2, 6});
  onnxpb::ModelProto m = test::make_model(g);
  auto* ms = m.add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  const std::string path =
      test::save_model(m, test::scratch_dir("transposed_weight_branch"), "m.onnx");

  const Planned p = plan_of(path);
  EXPECT_EQ(p.transposes, 0);
  EXPECT_EQ(p.initializers, (std::vector<std::string>{"W", "V", "C"}));
  EXPECT_TRUE(p.shares_w);
  // W and V are packed (dropped); C is Gemm's bias, read as it is.
  EXPECT_EQ(p.bytes.released, static_cast<size_t>(w.numel() + v.numel()) * sizeof(float));
  EXPECT_EQ(p.bytes.kept, static_cast<size_t>(c.numel()) * sizeof(float));

  // By hand: A · Wᵀ = [[4, 5], [10, 11]], + C = [[14, 25], [20, 31]]; 0.5 · A3 · Vᵀ rows
  // [1, -1, 2]: [5, 2, -2, 4] / 2 and [0.5, 3, -2]: [0.5, -2, 2.5, 3] / 2.
  const std::vector<float> want = {14, 25, 2.5f, 1, -1, 2, 20, 31, 0.25f, -1, 1.25f, 1.5f};
  expect_output(path,
                {{"A", a},
                 {"A3", a3},
                 {"Z", f32({2, 6}, std::vector<float>(12, 0))},
                 {"p", test::boolean({}, {true})}},
                want, 3);
}

// Tied embeddings, as in the decoder: W [vocab, d] is read by a Gather and, transposed, as
// the logits MatMul's B. The plan keeps W once (for the Gather) and no transposed copy.
TEST(TransposedWeight, AWeightAlsoGatheredIsKeptOnceWithoutATransposedCopy) {
  const Tensor w = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  GraphBuilder g("main");
  g.input("tok", ElemType::Int64, {1, 1}).input("H", ElemType::Float, {1, 1, 2});
  g.initializer("W", w);
  g.node("Gather", {"W", "tok"}, {"E"});
  g.node("Add", {"E", "H"}, {"X"});
  test::set_ints(g.node("Transpose", {"W"}, {"Wt"}), "perm", {1, 0});
  g.node("MatMul", {"X", "Wt"}, {"Y"});
  g.output("Y", ElemType::Float, {1, 1, 3});
  const std::string path = test::save_scratch(g, "transposed_weight_tied");

  const Planned p = plan_of(path);
  EXPECT_EQ(p.transposes, 0);
  EXPECT_EQ(p.initializers, std::vector<std::string>{"W"});
  EXPECT_EQ(p.bytes.kept, static_cast<size_t>(w.numel()) * sizeof(float));
  EXPECT_EQ(p.bytes.released, 0u);
  // tok 1: X = [3, 4] + [1, -1] = [4, 3]; X · Wᵀ = [4+6, 12+12, 20+18] by hand.
  expect_output(path, {{"tok", test::i64({1, 1}, {1})}, {"H", f32({1, 1, 2}, {1, -1})}},
                {10, 24, 38}, 2);
}

}  // namespace
}  // namespace bough
