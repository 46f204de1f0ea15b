// The plan-time view of constant inputs (ops::BuildContext::constant_input) and the count of
// weights kernels prepare from them (exec::Plan::prepared_weights): what counts as constant,
// at any depth of nesting, and that preparing happens once per plan, however often it runs.
#include <gtest/gtest.h>

#include "exec/prepared_models.h"
#include "util/thread_pool.h"

namespace bough::test {
namespace {

// A forward LSTM, input 2, hidden 1, seq 2, batch 1, with W, R and B.
NodeCase small_lstm() {
  NodeCase c;
  c.op = "LSTM";
  c.outputs = 3;
  c.inputs = {"X", "W", "R", "B"};
  c.data.emplace_back("X", f32({2, 1, 2}, {0.5f, -1, 0.25f, 2}));
  c.weights.emplace_back("W", f32({1, 4, 2}, {0.1f, 0.2f, 0.3f, 0.4f, -0.5f, 0.6f, 0.7f, -0.8f}));
  c.weights.emplace_back("R", f32({1, 4, 1}, {0.9f, -0.1f, 0.2f, 0.3f}));
  c.weights.emplace_back("B", f32({1, 8}, {0.1f, 0, 0, 0.2f, 0, 0.3f, -0.1f, 0}));
  return c;
}

TEST(PreparedWeights, EveryKindOfConstantIsSeenAtEveryDepth) {
  const NodeCase c = small_lstm();
  for (WeightSource src : {WeightSource::Initializer, WeightSource::Constant, WeightSource::Folded,
                           WeightSource::OuterConstant})
    for (const char* nest : {"", "I", "L", "S", "IL", "LSI", "IIS"}) {
      SCOPED_TRACE(std::string("source ") + std::to_string(static_cast<int>(src)) + " nest " +
                   nest);
      size_t copies = 1;
      for (const char* k = nest; *k; ++k)
        if (*k == 'I') copies *= 2;
      EXPECT_EQ(prepared_weights(save_nested(c, src, nest)), 3 * copies);
    }
  EXPECT_EQ(prepared_weights(save_nested(c, WeightSource::Input, "LSI")), 0u);
}

// Unsqueeze(Constant) is constant only once the session's passes fold it: planned as it is,
// the LSTM reads an Unsqueeze's output, which a run computes.
TEST(PreparedWeights, UnfoldedValuesAreNotConstant) {
  const std::string path = save_nested(small_lstm(), WeightSource::Folded, "I");
  const Model model = Model::load(path);
  EXPECT_EQ(
      exec::Plan::compile(*model.ir().graph, exec::CompileEnv{&model.ir()})->prepared_weights(),
      0u);
  EXPECT_EQ(prepared_weights(path), 6u);
}

// A graph input with an initializer is only a default: the caller may feed another value, so
// nothing is prepared from it and a fed value is what the run uses.
TEST(PreparedWeights, AnInputsDefaultIsNotConstant) {
  NodeCase c = small_lstm();
  GraphBuilder g;
  g.input("X", ElemType::Float, {2, 1, 2});
  for (const auto& [name, t] : c.weights) {
    g.input(name, ElemType::Float, t.shape().vec());
    g.initializer(name, t);
  }
  g.node("LSTM", c.inputs, {"Y", "Y_h", "Y_c"});
  g.output_untyped("Y_h");
  const std::string path = save_model(make_model(g), scratch_dir("prepared_default"), "m.onnx");
  EXPECT_EQ(prepared_weights(path), 0u);
  Session session(Model::load(path));
  const Tensor zero_w = f32({1, 4, 2}, std::vector<float>(8, 0));
  const Tensor zero_r = f32({1, 4, 1}, std::vector<float>(4, 0));
  const Tensor zero_b = f32({1, 8}, std::vector<float>(8, 0));
  // All weights zero: every gate is σ(0) = 0.5, the candidate tanh(0) = 0, so C and H stay 0.
  const auto out =
      session.run({{"X", c.data[0].second}, {"W", zero_w}, {"R", zero_r}, {"B", zero_b}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0}));
}

// A branch that runs on every call is planned once with its plan: the weights are prepared
// when the plan is compiled, and running it many times, down either branch, prepares
// nothing more and gives the unprepared path's results each time.
TEST(PreparedWeights, PreparedOncePerPlanNotPerRun) {
  const NodeCase c = small_lstm();
  const std::string path = save_nested(c, WeightSource::OuterConstant, "LI");
  const Model model = Model::load(path);
  const auto plan = exec::Plan::compile(*model.ir().graph, exec::CompileEnv{&model.ir()});
  EXPECT_EQ(plan->prepared_weights(), 6u);  // the LSTM in both branches
  const auto want =
      run_nested(c, WeightSource::Input, "LI", save_nested(c, WeightSource::Input, "LI"), 1);
  util::ThreadPool pool(1);
  const Value x(c.data[0].second);
  for (int run = 0; run < 6; ++run) {
    const bool cond = run % 2 == 0;
    const Value cv(boolean({}, {cond}));
    plan->bind_input(0, x);
    plan->bind_input(1, cv);
    ops::RunContext ctx{&pool};
    plan->run(ctx);
    for (size_t o = 0; o < plan->num_outputs(); ++o)
      EXPECT_EQ(doubles_of(plan->output(o).tensor()), want[(cond ? 0 : 3) + o]);
    plan->reset();
    EXPECT_EQ(plan->prepared_weights(), 6u);
  }
}

}  // namespace
}  // namespace bough::test
