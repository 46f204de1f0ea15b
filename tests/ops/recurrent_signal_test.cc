// Recurrent, signal and string operators on the cases the conformance tests leave out:
// bidirectional and reverse RNN/GRU/LSTM with uneven sequence_lens (against a plain loop
// written here), the batch-first layout, DFT lengths that are not powers of two, and the
// errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <numbers>

#include "bough/error.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Attrs;
using test::Dims64;
using test::f32;
using test::set_string;

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins, int outputs,
                           const test::Attrs& attrs = {}, int64_t opset = 22) {
  return test::run_node(op, ins, outputs, attrs, opset, "recsig");
}

// Deterministic values in [-1, 1).
std::vector<float> wave(size_t n, float phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * 0.7f + phase);
  return v;
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
}

float sigmoid(float x) { return 1 / (1 + std::exp(-x)); }

// ---------------------------------------------------------------------------------------
// RNN, GRU, LSTM against plain loops: 2 directions, sequence_lens {3, 1}.

constexpr int64_t S = 3, B = 2, I = 2, H = 3;
const std::vector<int64_t> kLens{3, 1};

struct Recurrence {
  int gates;
  // One step of one batch entry: gate pre-activations without the recurrent part are `xw`
  // (x·Wᵀ + biases), `h`/`c` the state, R the recurrence weights [gates*H, H].
  std::function<void(const float* x, const float* w, const float* r, const float* b, float* h,
                     float* c)>
      step;
};

// x·W[row]ᵀ for gate rows.
float dot(const float* a, const float* b, int64_t n) {
  float s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// Y [S, 2, B, H] and Y_h [2, B, H] (Y_c too for LSTM) by the plain loop.
void reference(const Recurrence& rec, const std::vector<float>& x, const std::vector<float>& w,
               const std::vector<float>& r, const std::vector<float>& b, std::vector<float>* y,
               std::vector<float>* yh, std::vector<float>* yc) {
  const int64_t G = rec.gates * H;
  y->assign(static_cast<size_t>(S * 2 * B * H), 0);
  yh->assign(static_cast<size_t>(2 * B * H), 0);
  yc->assign(static_cast<size_t>(2 * B * H), 0);
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t bi = 0; bi < B; ++bi) {
      float* h = yh->data() + (d * B + bi) * H;
      float* c = yc->data() + (d * B + bi) * H;
      const int64_t len = kLens[static_cast<size_t>(bi)];
      for (int64_t s = 0; s < len; ++s) {
        const int64_t t = d == 0 ? s : len - 1 - s;
        rec.step(x.data() + (t * B + bi) * I, w.data() + d * G * I, r.data() + d * G * H,
                 b.data() + d * 2 * G, h, c);
        std::copy_n(h, H, y->data() + ((t * 2 + d) * B + bi) * H);
      }
    }
}

std::vector<Tensor> run_recurrent(const std::string& op, int gates, int outputs) {
  const int64_t G = gates * H;
  Tensor x = f32({S, B, I}, wave(S * B * I, 0.1f));
  Tensor w = f32({2, G, I}, wave(static_cast<size_t>(2 * G * I), 0.2f));
  Tensor r = f32({2, G, H}, wave(static_cast<size_t>(2 * G * H), 0.3f));
  Tensor b = f32({2, 2 * G}, wave(static_cast<size_t>(4 * G), 0.4f));
  Tensor lens = Tensor::from_vector<int32_t>(ElemType::Int32, Dims{B}, {3, 1});
  return run_op(op, {{"x", x}, {"w", w}, {"r", r}, {"b", b}, {"lens", lens}}, outputs,
                [](onnxpb::NodeProto& n) {
                  test::set_int(n, "hidden_size", H);
                  set_string(n, "direction", "bidirectional");
                });
}

void check_against_reference(const std::string& op, const Recurrence& rec) {
  const int64_t G = rec.gates * H;
  const int outputs = rec.gates == 4 ? 3 : 2;
  std::vector<Tensor> got = run_recurrent(op, rec.gates, outputs);
  std::vector<float> y, yh, yc;
  reference(rec, wave(S * B * I, 0.1f), wave(static_cast<size_t>(2 * G * I), 0.2f),
            wave(static_cast<size_t>(2 * G * H), 0.3f), wave(static_cast<size_t>(4 * G), 0.4f), &y,
            &yh, &yc);
  EXPECT_EQ(got[0].shape(), (Dims{S, 2, B, H}));
  expect_near(test::floats_of(got[0]), y);
  expect_near(test::floats_of(got[1]), yh);
  if (rec.gates == 4) expect_near(test::floats_of(got[2]), yc);
}

TEST(RecurrentTest, RnnBidirectionalWithSequenceLengths) {
  Recurrence rec{
      1, [](const float* x, const float* w, const float* r, const float* b, float* h, float*) {
        float next[H];
        for (int64_t j = 0; j < H; ++j)
          next[j] = std::tanh(dot(x, w + j * I, I) + dot(h, r + j * H, H) + b[j] + b[H + j]);
        std::copy_n(next, H, h);
      }};
  check_against_reference("RNN", rec);
}

TEST(RecurrentTest, GruBidirectionalWithSequenceLengths) {
  Recurrence rec{
      3, [](const float* x, const float* w, const float* r, const float* b, float* h, float*) {
        const int64_t G = 3 * H;
        float z[H], rs[H], rh[H], next[H];
        for (int64_t j = 0; j < H; ++j) {
          z[j] = sigmoid(dot(x, w + j * I, I) + dot(h, r + j * H, H) + b[j] + b[G + j]);
          rs[j] = sigmoid(dot(x, w + (H + j) * I, I) + dot(h, r + (H + j) * H, H) + b[H + j] +
                          b[G + H + j]);
          rh[j] = rs[j] * h[j];
        }
        for (int64_t j = 0; j < H; ++j) {
          const float cand =
              std::tanh(dot(x, w + (2 * H + j) * I, I) + dot(rh, r + (2 * H + j) * H, H) +
                        b[2 * H + j] + b[G + 2 * H + j]);
          next[j] = (1 - z[j]) * cand + z[j] * h[j];
        }
        std::copy_n(next, H, h);
      }};
  check_against_reference("GRU", rec);
}

TEST(RecurrentTest, LstmBidirectionalWithSequenceLengths) {
  Recurrence rec{
      4, [](const float* x, const float* w, const float* r, const float* b, float* h, float* c) {
        const int64_t G = 4 * H;
        float gate[4][H];
        for (int k = 0; k < 4; ++k)
          for (int64_t j = 0; j < H; ++j) {
            const int64_t row = k * H + j;
            gate[k][j] = dot(x, w + row * I, I) + dot(h, r + row * H, H) + b[row] + b[G + row];
          }
        for (int64_t j = 0; j < H; ++j) {  // gates i, o, f, c
          c[j] = sigmoid(gate[2][j]) * c[j] + sigmoid(gate[0][j]) * std::tanh(gate[3][j]);
          h[j] = sigmoid(gate[1][j]) * std::tanh(c[j]);
        }
      }};
  check_against_reference("LSTM", rec);
}

TEST(RecurrentTest, BatchFirstLayoutMatchesTimeMajor) {
  Tensor x = f32({S, B, I}, wave(S * B * I, 0.5f));
  Tensor xt = f32({B, S, I}, {});
  for (int64_t s = 0; s < S; ++s)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t i = 0; i < I; ++i)
        xt.data<float>()[(b * S + s) * I + i] = x.data<float>()[(s * B + b) * I + i];
  Tensor w = f32({1, 4 * H, I}, wave(4 * H * I, 0.6f));
  Tensor r = f32({1, 4 * H, H}, wave(4 * H * H, 0.7f));
  auto attrs = [](int layout) {
    return [layout](onnxpb::NodeProto& n) {
      test::set_int(n, "hidden_size", H);
      test::set_int(n, "layout", layout);
      set_string(n, "direction", "reverse");
    };
  };
  std::vector<Tensor> a = run_op("LSTM", {{"x", x}, {"w", w}, {"r", r}}, 3, attrs(0));
  std::vector<Tensor> b = run_op("LSTM", {{"x", xt}, {"w", w}, {"r", r}}, 3, attrs(1));
  ASSERT_EQ(b[0].shape(), (Dims{B, S, 1, H}));
  ASSERT_EQ(b[1].shape(), (Dims{B, 1, H}));
  for (int64_t s = 0; s < S; ++s)
    for (int64_t bi = 0; bi < B; ++bi)
      for (int64_t j = 0; j < H; ++j)
        EXPECT_FLOAT_EQ(a[0].data<float>()[(s * B + bi) * H + j],
                        b[0].data<float>()[(bi * S + s) * H + j]);
  expect_near(test::floats_of(a[1]), test::floats_of(b[1]));
  expect_near(test::floats_of(a[2]), test::floats_of(b[2]));
}

TEST(RecurrentTest, RejectsMismatchedWeights) {
  Tensor x = f32({S, B, I}, wave(S * B * I, 0));
  Tensor w = f32({1, H, I + 1}, wave(H * (I + 1), 0));
  Tensor r = f32({1, H, H}, wave(H * H, 0));
  try {
    run_op("RNN", {{"x", x}, {"w", w}, {"r", r}}, 2,
           [](onnxpb::NodeProto& n) { test::set_int(n, "hidden_size", H); });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
  }
}

// ---------------------------------------------------------------------------------------
// DFT

// The DFT of a complex signal by the definition.
std::vector<std::complex<double>> naive_dft(const std::vector<std::complex<double>>& x,
                                            bool inverse) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<std::complex<double>> y(x.size());
  for (int64_t k = 0; k < n; ++k)
    for (int64_t t = 0; t < n; ++t) {
      const double a = (inverse ? 2 : -2) * std::numbers::pi * static_cast<double>(k * t % n) /
                       static_cast<double>(n);
      y[static_cast<size_t>(k)] += x[static_cast<size_t>(t)] * std::polar(1.0, a);
    }
  if (inverse)
    for (auto& v : y) v /= static_cast<double>(n);
  return y;
}

TEST(DftTest, AnyLengthMatchesTheDefinition) {
  for (int64_t n : {1, 5, 7, 8, 12, 31}) {
    for (int inverse = 0; inverse < 2; ++inverse) {
      std::vector<float> v = wave(static_cast<size_t>(2 * n), static_cast<float>(n));
      std::vector<std::complex<double>> x;
      for (int64_t t = 0; t < n; ++t) x.emplace_back(v[2 * t], v[2 * t + 1]);
      const auto want = naive_dft(x, inverse != 0);
      Tensor y = run_op(
          "DFT", {{"x", f32({1, n, 2}, v)}}, 1,
          [&](onnxpb::NodeProto& node) { test::set_int(node, "inverse", inverse); }, 20)[0];
      ASSERT_EQ(y.shape(), (Dims{1, n, 2}));
      for (int64_t k = 0; k < n; ++k) {
        EXPECT_NEAR(y.data<float>()[2 * k], want[static_cast<size_t>(k)].real(), 1e-5) << n;
        EXPECT_NEAR(y.data<float>()[2 * k + 1], want[static_cast<size_t>(k)].imag(), 1e-5) << n;
      }
    }
  }
}

TEST(DftTest, DftLengthPadsAndTruncates) {
  Tensor x = f32({1, 4, 1}, {1, 2, 3, 4});
  Tensor y = run_op("DFT", {{"x", x}, {"len", test::i64({}, {6})}}, 1, {}, 20)[0];
  ASSERT_EQ(y.shape(), (Dims{1, 6, 2}));
  EXPECT_NEAR(y.data<float>()[0], 10, 1e-5);  // the sum of the padded signal
  y = run_op("DFT", {{"x", x}, {"len", test::i64({}, {2})}}, 1, {}, 20)[0];
  ASSERT_EQ(y.shape(), (Dims{1, 2, 2}));
  EXPECT_NEAR(y.data<float>()[0], 3, 1e-5);   // 1 + 2
  EXPECT_NEAR(y.data<float>()[2], -1, 1e-5);  // 1 - 2
}

TEST(DftTest, RejectsTheComplexAxis) {
  Tensor x = f32({1, 4, 1}, {1, 2, 3, 4});
  try {
    run_op("DFT", {{"x", x}, {"", Tensor()}, {"axis", test::i64({}, {2})}}, 1, {}, 20);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
  }
}

// ---------------------------------------------------------------------------------------
// Strings

TEST(StringSplitTest, WhitespaceWithMaxsplitKeepsTheRest) {
  Tensor x(ElemType::String, Dims{2});
  x.strings()[0] = "  a b  c ";
  x.strings()[1] = "";
  std::vector<Tensor> y = run_op(
      "StringSplit", {{"x", x}}, 2, [](onnxpb::NodeProto& n) { test::set_int(n, "maxsplit", 1); },
      20);
  ASSERT_EQ(y[0].shape(), (Dims{2, 2}));
  EXPECT_EQ(y[0].strings()[0], "a");
  EXPECT_EQ(y[0].strings()[1], "b  c ");
  EXPECT_EQ(y[1].data<int64_t>()[0], 2);
  EXPECT_EQ(y[1].data<int64_t>()[1], 0);
}

Tensor regex_match(const std::string& pattern, const std::vector<std::string>& inputs) {
  Tensor x(ElemType::String, Dims{static_cast<int64_t>(inputs.size())});
  for (size_t i = 0; i < inputs.size(); ++i) x.strings()[i] = inputs[i];
  return run_op(
      "RegexFullMatch", {{"x", x}}, 1,
      [&](onnxpb::NodeProto& n) { set_string(n, "pattern", pattern); }, 20)[0];
}

TEST(RegexFullMatchTest, Re2SyntaxAnchorsAndFlags) {
  Tensor y = regex_match("\\Aab[c]\\z", {"abc", "abd"});
  EXPECT_TRUE(y.data<bool>()[0]);
  EXPECT_FALSE(y.data<bool>()[1]);
  // RE2's inline flags and named groups, which ECMAScript lacks.
  y = regex_match("(?i)AB(?P<tail>C+)", {"abcc", "abd", "xabc"});
  EXPECT_TRUE(y.data<bool>()[0]);
  EXPECT_FALSE(y.data<bool>()[1]);
  EXPECT_FALSE(y.data<bool>()[2]);  // a full match, not a search
}

TEST(RegexFullMatchTest, InvalidPatternIsAnInvalidModel) {
  try {
    regex_match("(ab", {"ab"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    EXPECT_NE(std::string(e.what()).find("missing )"), std::string::npos) << e.what();
  }
}

// Inputs that overflowed the stack of libstdc++'s std::regex: 30,000 nested groups at
// compile time, (a|b)* against 20,000 characters at run time.
TEST(RegexFullMatchTest, DeepPatternsAndLongInputsNeitherCrashNorRecurse) {
  // Appended rather than `string(n, c) + "a"`, which GCC 12 at -O1 flags as out of bounds
  // (a false -Warray-bounds inside std::string's operator+).
  std::string nested(30000, '(');
  nested.append("a").append(30000, ')');
  try {
    Tensor y = regex_match(nested, {"a", "b"});
    EXPECT_TRUE(y.data<bool>()[0]);
    EXPECT_FALSE(y.data<bool>()[1]);
  } catch (const Error& e) {
    // RE2 may refuse it as too deep or too large: a clear error either way.
    EXPECT_TRUE(e.kind() == ErrorKind::Unsupported || e.kind() == ErrorKind::InvalidModel)
        << e.what();
  }
  std::string long_input(20000, 'a');
  long_input[7777] = 'b';
  Tensor y = regex_match("(a|b)*", {long_input, long_input + "c"});
  EXPECT_TRUE(y.data<bool>()[0]);
  EXPECT_FALSE(y.data<bool>()[1]);
}

}  // namespace
}  // namespace bough
