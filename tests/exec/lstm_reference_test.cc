// LSTM (its gates activated a whole gate at a time with the vectorized tanh and sigmoid of
// kernels/fast_math.h) against a plain loop over the ONNX formulas in double with libm's
// tanh and exp: several steps, a hidden size that is not a multiple of any vector width,
// peepholes, clip and input_forget, weights prepared (initializers) and read per run
// (graph inputs), at 1 and 2 threads. fast_tanh and fast_sigmoid are within 5 ulp of the
// exact values, so every output stays within 1e-5 of the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "exec/prepared_models.h"

namespace bough::test {
namespace {

struct LstmShape {
  int64_t seq, batch, input, hidden;
};

// Y, Y_h, Y_c of a forward LSTM (gates i, o, f, c; peepholes i, o, f) in double.
std::vector<std::vector<double>> reference_lstm(const NodeCase& c, const LstmShape& s, float clip,
                                                bool input_forget) {
  auto values = [&](const NamedTensors& list, const std::string& name) {
    for (const auto& [n, t] : list)
      if (n == name) return doubles_of(t);
    return std::vector<double>{};
  };
  const std::vector<double> x = values(c.data, "X"), h0 = values(c.data, "h0"),
                            c0 = values(c.data, "c0"), p = values(c.data, "P"),
                            w = values(c.weights, "W"), r = values(c.weights, "R"),
                            b = values(c.weights, "B");
  const int64_t H = s.hidden, G = 4 * H;
  auto clipped = [&](double v) { return clip > 0 ? std::clamp<double>(v, -clip, clip) : v; };
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  std::vector<double> h = h0, cell = c0, y;
  for (int64_t t = 0; t < s.seq; ++t) {
    std::vector<double> next_h(h.size());
    for (int64_t bi = 0; bi < s.batch; ++bi) {
      // pre[g * H + j]: X·Wᵀ + H·Rᵀ + Wb + Rb for gate g, unit j.
      std::vector<double> pre(static_cast<size_t>(G));
      for (int64_t row = 0; row < G; ++row) {
        double sum = b[row] + b[G + row];
        for (int64_t k = 0; k < s.input; ++k)
          sum += x[(t * s.batch + bi) * s.input + k] * w[row * s.input + k];
        for (int64_t k = 0; k < H; ++k) sum += h[bi * H + k] * r[row * H + k];
        pre[row] = sum;
      }
      for (int64_t j = 0; j < H; ++j) {
        double& ct = cell[bi * H + j];
        const double f = sigmoid(clipped(pre[2 * H + j] + p[2 * H + j] * ct));
        const double i = input_forget ? 1 - f : sigmoid(clipped(pre[j] + p[j] * ct));
        const double cand = std::tanh(clipped(pre[3 * H + j]));
        ct = f * ct + i * cand;
        const double o = sigmoid(clipped(pre[H + j] + p[H + j] * ct));
        next_h[bi * H + j] = o * std::tanh(ct);
      }
    }
    h = next_h;
    y.insert(y.end(), h.begin(), h.end());
  }
  return {y, h, cell};
}

NodeCase lstm_case(Random& r, const LstmShape& s, float clip, bool input_forget) {
  NodeCase c;
  c.op = "LSTM";
  c.opset = 14;
  c.outputs = 3;
  c.inputs = {"X", "W", "R", "B", "", "h0", "c0", "P"};
  c.data.emplace_back("X", r.floats({s.seq, s.batch, s.input}));
  c.data.emplace_back("h0", r.floats({1, s.batch, s.hidden}));
  c.data.emplace_back("c0", r.floats({1, s.batch, s.hidden}));
  c.data.emplace_back("P", r.floats({1, 3 * s.hidden}));
  c.weights.emplace_back("W", r.floats({1, 4 * s.hidden, s.input}));
  c.weights.emplace_back("R", r.floats({1, 4 * s.hidden, s.hidden}));
  c.weights.emplace_back("B", r.floats({1, 8 * s.hidden}));
  c.attrs = [=](onnxpb::NodeProto& n) {
    if (clip > 0) set_float(n, "clip", clip);
    set_int(n, "input_forget", input_forget);
  };
  return c;
}

TEST(LstmReference, MatchesTheFormulasInDouble) {
  Random r(41);
  const LstmShape shapes[] = {{5, 1, 7, 37}, {3, 2, 4, 64}, {2, 3, 1, 1}, {4, 1, 9, 70}};
  for (const LstmShape& s : shapes)
    for (float clip : {0.0f, 1.5f})
      for (bool input_forget : {false, true}) {
        const NodeCase c = lstm_case(r, s, clip, input_forget);
        const auto want = reference_lstm(c, s, clip, input_forget);
        for (WeightSource src : {WeightSource::Initializer, WeightSource::Input}) {
          const std::string path = save_nested(c, src, "");
          for (int threads : {1, 2}) {
            SCOPED_TRACE("hidden " + std::to_string(s.hidden) + " clip " + std::to_string(clip) +
                         " input_forget " + std::to_string(input_forget) + " source " +
                         std::to_string(static_cast<int>(src)) + " threads " +
                         std::to_string(threads));
            const auto got = run_nested(c, src, "", path, threads);
            ASSERT_EQ(got.size(), want.size());
            for (size_t o = 0; o < got.size(); ++o) {
              ASSERT_EQ(got[o].size(), want[o].size()) << "output " << o;
              for (size_t i = 0; i < got[o].size(); ++i)
                ASSERT_NEAR(got[o][i], want[o][i], 1e-5 * (1 + std::abs(want[o][i])))
                    << "output " << o << " element " << i;
            }
          }
        }
      }
}

}  // namespace
}  // namespace bough::test
