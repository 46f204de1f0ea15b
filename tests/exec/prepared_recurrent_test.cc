// LSTM, GRU and RNN with constant W, R and B (prepared once at plan time) against the same
// models with the weights fed as graph inputs (read on every run), on random shapes and
// attributes, at 1 and 2 threads, with the weights as initializers, Constants, folded
// Unsqueeze(Constant)s, and Constants captured by If branches and Loop/Scan bodies.
#include <gtest/gtest.h>

#include "exec/prepared_models.h"

namespace bough::test {
namespace {

// gates: 1 RNN, 3 GRU, 4 LSTM.
NodeCase recurrent_case(Random& r, const std::string& op, int gates) {
  const char* directions[] = {"forward", "reverse", "bidirectional"};
  const std::string direction = directions[r.pick(0, 2)];
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  const int64_t seq = r.pick(1, 4), batch = r.pick(1, 3), input = r.pick(1, 5),
                hidden = r.pick(1, 4), layout = r.pick(0, 1);
  NodeCase c;
  c.op = op;
  c.opset = 14;
  c.outputs = gates == 4 ? 3 : 2;
  c.data.emplace_back("X", layout ? r.floats({batch, seq, input}) : r.floats({seq, batch, input}));
  c.weights.emplace_back("W", r.floats({dirs, gates * hidden, input}));
  c.weights.emplace_back("R", r.floats({dirs, gates * hidden, hidden}));
  const bool with_b = r.pick(0, 3) != 0;
  if (with_b) c.weights.emplace_back("B", r.floats({dirs, 2 * gates * hidden}));
  c.inputs = {"X", "W", "R", with_b ? "B" : ""};
  if (r.pick(0, 1)) {
    std::vector<int32_t> lens;
    for (int64_t b = 0; b < batch; ++b) lens.push_back(static_cast<int32_t>(r.pick(0, seq)));
    Tensor t(ElemType::Int32, Dims{batch});
    std::copy(lens.begin(), lens.end(), t.data<int32_t>());
    c.data.emplace_back("lens", t);
    c.inputs.push_back("lens");
  } else {
    c.inputs.push_back("");
  }
  auto state = [&](const std::string& name) {
    if (!r.pick(0, 1)) return c.inputs.push_back("");
    c.data.emplace_back(name,
                        layout ? r.floats({batch, dirs, hidden}) : r.floats({dirs, batch, hidden}));
    c.inputs.push_back(name);
  };
  state("h0");
  if (gates == 4) {
    state("c0");
    if (r.pick(0, 1)) {
      c.data.emplace_back("P", r.floats({dirs, 3 * hidden}));
      c.inputs.push_back("P");
    }
  }
  const bool clip = r.pick(0, 1), flag = r.pick(0, 1), hidden_attr = r.pick(0, 1);
  const bool acts = r.pick(0, 2) == 0;
  c.attrs = [=](onnxpb::NodeProto& n) {
    set_string(n, "direction", direction);
    set_int(n, "layout", layout);
    if (hidden_attr) set_int(n, "hidden_size", hidden);
    if (clip) set_float(n, "clip", 0.75f);
    if (gates == 3) set_int(n, "linear_before_reset", flag);
    if (gates == 4) set_int(n, "input_forget", flag);
    if (acts) {
      auto* a = n.add_attribute();
      a->set_name("activations");
      a->set_type(onnxpb::AttributeProto::STRINGS);
      const char* names[] = {"HardSigmoid", "Softsign", "Relu", "LeakyRelu"};
      const int per = gates == 4 ? 3 : gates == 3 ? 2 : 1;
      for (int64_t i = 0; i < per * dirs; ++i) a->add_strings(names[i % 4]);
    }
  };
  return c;
}

size_t weights_of(const NodeCase& c) { return c.weights.size(); }

void check_op(const std::string& op, int gates, unsigned seed) {
  Random r(seed);
  for (int i = 0; i < 12; ++i) {
    const NodeCase c = recurrent_case(r, op, gates);
    const WeightSource sources[] = {WeightSource::Initializer, WeightSource::Constant,
                                    WeightSource::Folded, WeightSource::OuterConstant};
    const WeightSource src = sources[i % 4];
    const char* nests[] = {"", "I", "LI", "ISI", "S"};
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, src, nests[i % 5], threads, weights_of(c));
  }
}

TEST(PreparedRecurrent, LstmMatchesTheUnpreparedPath) { check_op("LSTM", 4, 11); }
TEST(PreparedRecurrent, GruMatchesTheUnpreparedPath) { check_op("GRU", 3, 12); }
TEST(PreparedRecurrent, RnnMatchesTheUnpreparedPath) { check_op("RNN", 1, 13); }

// Worked by hand: one step of a forward LSTM, input 1, hidden 1, no initial state, the
// weights as initializers. W rows (i, o, f, c) = (1, 2, 3, 4), R unused at t=0 (H0 = 0),
// Wb = (0.5, 0, -1, 0), Rb = (0.5, 1, 0, 1); X = 0.5:
//   i = σ(0.5 + 1) = σ(1.5), o = σ(1 + 1) = σ(2), f = σ(1.5 - 1), c~ = tanh(2 + 1) = tanh(3),
//   C1 = f·0 + i·c~ = σ(1.5)·tanh(3), H1 = o·tanh(C1).
TEST(PreparedRecurrent, LstmByHand) {
  NodeCase c;
  c.op = "LSTM";
  c.outputs = 3;
  c.inputs = {"X", "W", "R", "B"};
  c.data.emplace_back("X", f32({1, 1, 1}, {0.5f}));
  c.weights.emplace_back("W", f32({1, 4, 1}, {1, 2, 3, 4}));
  c.weights.emplace_back("R", f32({1, 4, 1}, {9, 9, 9, 9}));
  c.weights.emplace_back("B", f32({1, 8}, {0.5f, 0, -1, 0, 0.5f, 1, 0, 1}));
  const std::string path = save_nested(c, WeightSource::Initializer, "");
  EXPECT_EQ(prepared_weights(path), 3u);
  const auto out = run_nested(c, WeightSource::Initializer, "", path, 1);
  auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
  const double c1 = sigmoid(1.5) * std::tanh(3.0), h1 = sigmoid(2) * std::tanh(c1);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0][0], h1, 1e-6);
  EXPECT_NEAR(out[1][0], h1, 1e-6);
  EXPECT_NEAR(out[2][0], c1, 1e-6);
}

// Worked by hand: one step of a GRU with linear_before_reset, input 1, hidden 1, H0 = 1.
// W (z, r, h) = (1, 1, 1), R = (0, 0, 2), Wb = 0, Rb = (0, 0, 1), X = 0:
//   z = σ(0) = 0.5, r = σ(0) = 0.5, h~ = tanh(0 + r·(2·1 + 1)) = tanh(1.5),
//   H1 = (1 - z)·h~ + z·H0 = 0.5·tanh(1.5) + 0.5.
TEST(PreparedRecurrent, GruLinearBeforeResetByHand) {
  NodeCase c;
  c.op = "GRU";
  c.outputs = 2;
  c.inputs = {"X", "W", "R", "B", "", "h0"};
  c.data.emplace_back("X", f32({1, 1, 1}, {0}));
  c.data.emplace_back("h0", f32({1, 1, 1}, {1}));
  c.weights.emplace_back("W", f32({1, 3, 1}, {1, 1, 1}));
  c.weights.emplace_back("R", f32({1, 3, 1}, {0, 0, 2}));
  c.weights.emplace_back("B", f32({1, 6}, {0, 0, 0, 0, 0, 1}));
  c.attrs = [](onnxpb::NodeProto& n) { set_int(n, "linear_before_reset", 1); };
  const std::string path = save_nested(c, WeightSource::Constant, "");
  EXPECT_EQ(prepared_weights(path), 3u);
  const auto out = run_nested(c, WeightSource::Constant, "", path, 1);
  EXPECT_NEAR(out[1][0], 0.5 * std::tanh(1.5) + 0.5, 1e-6);
}

// A weight whose shape does not fit is not prepared; the run reports it as before.
TEST(PreparedRecurrent, MisfitWeightsAreLeftToTheRun) {
  NodeCase c;
  c.op = "RNN";
  c.outputs = 2;
  c.inputs = {"X", "W", "R"};
  c.data.emplace_back("X", f32({1, 1, 2}, {1, 2}));
  c.weights.emplace_back("W", f32({1, 1, 3}, {1, 2, 3}));  // input size 3, X has 2
  c.weights.emplace_back("R", f32({1, 1, 1}, {1}));
  const std::string path = save_nested(c, WeightSource::Initializer, "");
  EXPECT_EQ(prepared_weights(path), 2u);  // W fits the attributes; X is checked per run
  Session session(Model::load(path));
  try {
    session.run({{"X", c.data[0].second}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("W has shape [1,1,3], expected [1,1,2]"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace bough::test
