// com.microsoft contrib operators beyond the ONNX Runtime comparisons (tests/peer/contrib):
// corner cases with values worked out by hand (or in double, in the comments), attribute
// defaults, optional inputs and outputs, errors, and the domain's place in the opset check.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>

#include "error_text.h"
#include "exec/prepared_models.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough::test {
namespace {

const std::string kMs = "com.microsoft";

std::vector<Tensor> run_ms(
    const std::string& op, const NamedTensors& ins, int outputs = 1,
    const Attrs& attrs = [](onnxpb::NodeProto&) {}, int threads = 1) {
  return run_node(op, ins, outputs, attrs, 1, "contrib", threads, kMs);
}

void expect_values(const Tensor& t, const Dims64& dims, const std::vector<double>& want,
                   double tolerance = 1e-6) {
  EXPECT_EQ(t.type(), ElemType::Float);
  EXPECT_EQ(t.shape(), Dims(std::span<const int64_t>(dims)));
  const std::vector<double> got = doubles_of(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tolerance) << "element " << i;
}

// ---------------------------------------------------------------------------------------
// Gelu family

TEST(ContribGeluTest, GeluIsTheErfForm) {
  // 0.5 x (1 + erf(x / sqrt 2)): Phi(1) = 0.841344746, so 1 -> 0.841344746, -1 -> -0.158655254,
  // 3 -> 3 * 0.998650102 = 2.995950306; 0 -> 0.
  auto out = run_ms("Gelu", {{"X", f32({4}, {1, -1, 3, 0})}});
  expect_values(out[0], {4}, {0.841344746, -0.158655254, 2.995950306, 0});
}

TEST(ContribGeluTest, BiasGeluAddsTheBiasAlongTheLastDimension) {
  // A + B = [[1, -1], [3, 0]]; Gelu as above.
  auto out =
      run_ms("BiasGelu", {{"A", f32({2, 2}, {0.5f, -1, 2.5f, 0})}, {"B", f32({2}, {0.5f, 0})}});
  expect_values(out[0], {2, 2}, {0.841344746, -0.158655254, 2.995950306, 0});
}

// BiasGelu and BiasAdd on 37 rows of 97 (a bias row that the threads' chunks cut in the
// middle), at 1 and 4 threads, against loops in double: Gelu(a + b) = (a + b)/2 erfc(-(a + b)
// / sqrt 2) within fast_gelu's 16 ulp; BiasAdd's (x + bias) + skip as float sums.
TEST(ContribGeluTest, BiasRowsSplitAcrossThreadsMatchReferenceLoops) {
  constexpr int64_t kRows = 37, kWidth = 97;
  Rng rng(141);
  const Tensor a = random_floats({1, kRows, kWidth}, rng, -4, 4);  // BiasAdd's X is 3-D
  const Tensor bias = random_floats({kWidth}, rng, -1, 1);
  const Tensor skip = random_floats({1, kRows, kWidth}, rng, -1, 1);
  const std::vector<double> av = doubles_of(a), bv = doubles_of(bias), sv = doubles_of(skip);
  for (int threads : {1, 4}) {
    SCOPED_TRACE(threads);
    const std::vector<double> gelu = doubles_of(run_ms(
        "BiasGelu", {{"A", a}, {"B", bias}}, 1, [](onnxpb::NodeProto&) {}, threads)[0]);
    const std::vector<double> sum = doubles_of(run_ms(
        "BiasAdd", {{"X", a}, {"bias", bias}, {"skip", skip}}, 1, [](onnxpb::NodeProto&) {},
        threads)[0]);
    ASSERT_EQ(gelu.size(), av.size());
    ASSERT_EQ(sum.size(), av.size());
    for (size_t i = 0; i < av.size(); ++i) {
      const double b = bv[i % kWidth];
      const float x = static_cast<float>(av[i]) + static_cast<float>(b);
      const double want = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
      EXPECT_NEAR(gelu[i], want, 16 * std::abs(want) * FLT_EPSILON + 1e-30) << "element " << i;
      EXPECT_EQ(sum[i], x + static_cast<float>(sv[i])) << "element " << i;
    }
  }
}

TEST(ContribGeluTest, FastGeluIsTheTanhFormWithOptionalBias) {
  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) in double: 1 -> 0.841191991,
  // -1.5 -> -0.100428423, and far in the negative tail, where 1 + tanh cancels,
  // -4.678485 -> -1.79625536e-6 (relative accuracy kept).
  auto out = run_ms("FastGelu", {{"X", f32({2}, {0, -2})}, {"bias", f32({2}, {1, 0.5f})}});
  expect_values(out[0], {2}, {0.841191991, -0.100428423});
  auto tail = run_ms("FastGelu", {{"X", f32({1}, {-4.678485f})}});
  EXPECT_NEAR(doubles_of(tail[0])[0], -1.79625536e-6, 1e-10);
}

TEST(ContribGeluTest, QuickGeluUsesAlpha) {
  // x sigmoid(alpha x): default alpha 1.702 gives sigmoid(1.702) = 0.845795766 at 1; alpha 2
  // gives sigmoid(2) = 0.880797078 at 1 and -sigmoid(-2) = -0.119202922 at -1.
  expect_values(run_ms("QuickGelu", {{"X", f32({1}, {1})}})[0], {1}, {0.845795766});
  auto out = run_ms("QuickGelu", {{"X", f32({2}, {1, -1})}}, 1,
                    [](onnxpb::NodeProto& n) { set_float(n, "alpha", 2.0f); });
  expect_values(out[0], {2}, {0.880797078, -0.119202922});
}

TEST(ContribGeluTest, BiasAddSumsThreeInputs) {
  auto out = run_ms("BiasAdd", {{"X", f32({1, 2, 2}, {1, 2, 3, 4})},
                                {"bias", f32({2}, {10, 20})},
                                {"skip", f32({1, 2, 2}, {100, 200, 300, 400})}});
  expect_values(out[0], {1, 2, 2}, {111, 222, 313, 424});
}

TEST(ContribGeluTest, BiasOfTheWrongLengthIsBadInput) {
  expect_error_mentioning(
      [] {
        run_ms("BiasGelu", {{"A", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"B", f32({2}, {1, 2})}});
      },
      "not 1-D of the input's last dimension");
  expect_bad_input([] {
    run_ms("BiasAdd", {{"X", f32({2, 2}, {1, 2, 3, 4})},
                       {"bias", f32({2}, {1, 2})},
                       {"skip", f32({2, 2}, {1, 2, 3, 4})}});
  });
}

TEST(ContribGeluTest, ManyElementsSplitOverThreadsMatchOneThread) {
  std::vector<float> x(100000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) * 0.1f - 4.8f;
  const auto one = run_ms("Gelu", {{"X", f32({100000}, x)}}, 1, {}, 1);
  const auto four = run_ms("Gelu", {{"X", f32({100000}, x)}}, 1, {}, 4);
  EXPECT_EQ(floats_of(one[0]), floats_of(four[0]));
}

// ---------------------------------------------------------------------------------------
// FusedMatMul

TEST(ContribFusedMatMulTest, TransAAndAlpha) {
  // A^T = [[1, 3], [2, 4]]; A^T B = [[26, 30], [38, 44]]; alpha 0.5 halves it.
  auto out =
      run_ms("FusedMatMul", {{"A", f32({2, 2}, {1, 2, 3, 4})}, {"B", f32({2, 2}, {5, 6, 7, 8})}}, 1,
             [](onnxpb::NodeProto& n) {
               set_int(n, "transA", 1);
               set_float(n, "alpha", 0.5f);
             });
  expect_values(out[0], {2, 2}, {13, 15, 19, 22});
}

TEST(ContribFusedMatMulTest, TransBatchMovesTheFirstDimensionBehindTheBatch) {
  // A (2, 1, 2) = [M=2, batch=1, K=2] is read as (1, 2, 2) [[1, 2], [3, 4]]; times
  // B [[5, 6], [7, 8]]: [[19, 22], [43, 50]].
  auto out = run_ms("FusedMatMul",
                    {{"A", f32({2, 1, 2}, {1, 2, 3, 4})}, {"B", f32({1, 2, 2}, {5, 6, 7, 8})}}, 1,
                    [](onnxpb::NodeProto& n) { set_int(n, "transBatchA", 1); });
  expect_values(out[0], {1, 2, 2}, {19, 22, 43, 50});
  // transBatchB and transB together: B (2, 1, 2) -> (1, 2, 2) [[5, 6], [7, 8]] -> transposed
  // [[5, 7], [6, 8]]; A [[1, 2], [3, 4]] times it: [[17, 23], [39, 53]].
  auto both = run_ms("FusedMatMul",
                     {{"A", f32({1, 2, 2}, {1, 2, 3, 4})}, {"B", f32({2, 1, 2}, {5, 6, 7, 8})}}, 1,
                     [](onnxpb::NodeProto& n) {
                       set_int(n, "transBatchB", 1);
                       set_int(n, "transB", 1);
                     });
  expect_values(both[0], {1, 2, 2}, {17, 23, 39, 53});
}

// A constant 2-D B is packed once with alpha folded in; the result equals the unprepared path
// (B fed), transposed or not, with A of rank 1 to 3, in If, Loop and Scan bodies too.
TEST(ContribFusedMatMulTest, PreparedWeightsMatchTheUnpreparedPath) {
  const WeightSource sources[] = {WeightSource::Initializer, WeightSource::Constant,
                                  WeightSource::OuterConstant, WeightSource::Folded};
  const char* nests[] = {"", "I", "L", "S"};
  Random r(5);
  for (int i = 0; i < 8; ++i) {
    const int64_t k = r.pick(1, 6), n = r.pick(1, 5);
    const bool trans_a = i % 3 == 1, trans_b = i % 2 == 1;
    const float alpha = i % 4 == 0 ? 1.0f : -0.75f;
    Dims64 a_dims = trans_a ? Dims64{k, r.pick(1, 4)} : Dims64{k};
    if (!trans_a && i % 3 == 2) a_dims = {2, r.pick(1, 3), k};
    NodeCase c;
    c.op = "FusedMatMul";
    c.domain = kMs;
    c.data.emplace_back("a", r.floats(a_dims));
    c.weights.emplace_back("b", r.floats(trans_b ? Dims64{n, k} : Dims64{k, n}));
    c.inputs = {"a", "b"};
    c.attrs = [=](onnxpb::NodeProto& node) {
      set_int(node, "transA", trans_a);
      set_int(node, "transB", trans_b);
      set_float(node, "alpha", alpha);
    };
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, sources[i % 4], nests[i % 4], threads, 1);
  }
}

TEST(ContribFusedMatMulTest, MismatchedContractedDimsAreInvalid) {
  // transB makes B (3, 2) a (2, 3): K = 2 against A's 2 fits without it only.
  expect_invalid_model([] {
    run_ms("FusedMatMul", {{"A", f32({1, 2}, {1, 2})}, {"B", f32({3, 2}, {1, 2, 3, 4, 5, 6})}});
  });
}

TEST(ContribFusedMatMulTest, IntegerInputsAreOutsideTheSignature) {
  expect_invalid_model([] {
    run_ms("FusedMatMul", {{"A", i64({1, 1}, {1})}, {"B", i64({1, 1}, {2})}});
  });
}

// ---------------------------------------------------------------------------------------
// Normalizations

TEST(ContribNormTest, SkipLayerNormalizationWithEveryOutput) {
  // s = x + skip + bias = [2, 2, 2, 4] + 1 = [3, 3, 3, 5]: mean 3.5, variance 0.75,
  // inv_std (epsilon 0) 1 / sqrt(0.75) = 1.154700538; normalized [-1, -1, -1, 3] * 0.577350269;
  // times gamma [1, 1, 1, 2] plus beta [0, 1, 0, 0].
  auto out = run_ms("SkipLayerNormalization",
                    {{"x", f32({1, 4}, {1, 2, 3, 4})},
                     {"skip", f32({1, 4}, {1, 0, -1, 0})},
                     {"gamma", f32({4}, {1, 1, 1, 2})},
                     {"beta", f32({4}, {0, 1, 0, 0})},
                     {"bias", f32({4}, {1, 1, 1, 1})}},
                    4, [](onnxpb::NodeProto& n) { set_float(n, "epsilon", 0.0f); });
  const double u = 0.577350269;
  expect_values(out[0], {1, 4}, {-u, 1 - u, -u, 6 * u});
  expect_values(out[1], {1, 1}, {3.5});
  expect_values(out[2], {1, 1}, {1.154700538});
  expect_values(out[3], {1, 4}, {3, 3, 3, 5});
}

TEST(ContribNormTest, SkipBroadcastsOverLeadingDimensions) {
  // skip (1, 2) added to both rows of x (2, 2): rows [1, 3] and [3, 5], each normalized to
  // [-1, 1] (variance 1, epsilon 0).
  auto out = run_ms("SkipLayerNormalization",
                    {{"x", f32({2, 2}, {0, 1, 2, 3})},
                     {"skip", f32({1, 2}, {1, 2})},
                     {"gamma", f32({2}, {1, 1})}},
                    1, [](onnxpb::NodeProto& n) { set_float(n, "epsilon", 0.0f); });
  expect_values(out[0], {2, 2}, {-1, 1, -1, 1});
}

TEST(ContribNormTest, SkipOfAnotherShapeIsBadInput) {
  expect_bad_input([] {
    run_ms("SkipLayerNormalization", {{"x", f32({2, 2}, {0, 1, 2, 3})},
                                      {"skip", f32({2, 1}, {1, 2})},
                                      {"gamma", f32({2}, {1, 1})}});
  });
}

TEST(ContribNormTest, SkipSimplifiedDividesByTheRootMeanSquare) {
  // s = [3, 4, 0, 0]: mean of squares 25 / 4, root 2.5, inv_std 0.4 (epsilon 0); times gamma
  // [1, 2, 3, 4]: [1.2, 3.2, 0, 0]. No mean is taken: the mean output is 0 (as ONNX Runtime
  // gives it).
  auto out = run_ms("SkipSimplifiedLayerNormalization",
                    {{"x", f32({1, 4}, {1, 4, 0, -1})},
                     {"skip", f32({1, 4}, {2, 0, 0, 1})},
                     {"gamma", f32({4}, {1, 2, 3, 4})}},
                    4, [](onnxpb::NodeProto& n) { set_float(n, "epsilon", 0.0f); });
  expect_values(out[0], {1, 4}, {1.2, 3.2, 0, 0});
  expect_values(out[1], {1, 1}, {0});
  expect_values(out[2], {1, 1}, {0.4});
  expect_values(out[3], {1, 4}, {3, 4, 0, 0});
}

TEST(ContribNormTest, SimplifiedLayerNormalizationAxisAndEpsilon) {
  // Default axis -1: row [3, 4] has mean square 12.5, inv_std 0.282842712; row [0, 0] only
  // epsilon 1e-5, inv_std 316.227766 and output 0.
  auto rows = run_node("SimplifiedLayerNormalization",
                       {{"X", f32({2, 2}, {3, 4, 0, 0})}, {"scale", f32({2}, {1, 2})}}, 2, {}, 17,
                       "contrib");
  const double k = 0.282842712;
  expect_values(rows[0], {2, 2}, {3 * k, 8 * k, 0, 0});
  expect_values(rows[1], {2, 1}, {k, 316.227766}, 1e-3);
  // axis 0: the whole tensor, mean square 25 / 4, inv_std 0.4; scale (2, 2).
  auto whole = run_node(
      "SimplifiedLayerNormalization",
      {{"X", f32({2, 2}, {3, 4, 0, 0})}, {"scale", f32({2, 2}, {1, 1, 1, 1})}}, 2,
      [](onnxpb::NodeProto& n) {
        set_int(n, "axis", 0);
        set_float(n, "epsilon", 0.0f);
      },
      17, "contrib");
  expect_values(whole[0], {2, 2}, {1.2, 1.6, 0, 0});
  expect_values(whole[1], {1, 1}, {0.4});
}

// ---------------------------------------------------------------------------------------
// RotaryEmbedding

// Caches of 2 positions, half width 2: position 1 has cos [0, 0.6] and sin [1, 0.8].
NamedTensors rotary_inputs(Tensor x, Tensor positions) {
  return {{"input", std::move(x)},
          {"position_ids", std::move(positions)},
          {"cos_cache", f32({2, 2}, {1, 1, 0, 0.6f})},
          {"sin_cache", f32({2, 2}, {0, 0, 1, 0.8f})}};
}

TEST(ContribRotaryTest, HalvesOrInterleavedPairs) {
  // x = [1, 2, 3, 4] at position 1. Halves pair (0, 2) at angle 0 (cos 0, sin 1) and (1, 3)
  // at (0.6, 0.8): out0 = 1*0 - 3*1 = -3, out2 = 3*0 + 1*1 = 1, out1 = 2*0.6 - 4*0.8 = -2,
  // out3 = 4*0.6 + 2*0.8 = 4.
  auto halves =
      run_ms("RotaryEmbedding", rotary_inputs(f32({1, 1, 4}, {1, 2, 3, 4}), i64({1, 1}, {1})), 1,
             [](onnxpb::NodeProto& n) { set_int(n, "num_heads", 1); });
  expect_values(halves[0], {1, 1, 4}, {-3, -2, 1, 4});
  // Interleaved pairs (0, 1) and (2, 3): -2, 1, then 3*0.6 - 4*0.8 = -1.4, 4*0.6 + 3*0.8 = 4.8.
  auto pairs =
      run_ms("RotaryEmbedding", rotary_inputs(f32({1, 1, 4}, {1, 2, 3, 4}), i64({1, 1}, {1})), 1,
             [](onnxpb::NodeProto& n) { set_int(n, "interleaved", 1); });
  expect_values(pairs[0], {1, 1, 4}, {-2, 1, -1.4, 4.8});
}

TEST(ContribRotaryTest, OffsetPositionsAndAPartialRotaryDim) {
  // position_ids (1) = [0]: the two steps are at positions 0 (identity) and 1. Head size 6,
  // rotary dim 4: the last two dims of each head pass through.
  auto out =
      run_ms("RotaryEmbedding",
             rotary_inputs(f32({1, 2, 6}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}), i64({1}, {0})), 1,
             [](onnxpb::NodeProto& n) {
               set_int(n, "num_heads", 1);
               set_int(n, "rotary_embedding_dim", 4);
             });
  expect_values(out[0], {1, 2, 6}, {1, 2, 3, 4, 5, 6, -3, -2, 1, 4, 5, 6});
}

TEST(ContribRotaryTest, PositionPastTheCachesIsBadInput) {
  expect_error_mentioning(
      [] {
        run_ms("RotaryEmbedding", rotary_inputs(f32({1, 1, 4}, {1, 2, 3, 4}), i64({1, 1}, {2})));
      },
      "position 2 is outside the caches' 2 positions");
}

// ---------------------------------------------------------------------------------------
// MatMulNBits

Tensor u8(Dims64 dims, std::vector<uint8_t> v) {
  return Tensor::from_vector<uint8_t>(ElemType::UInt8, Dims(std::span<const int64_t>(dims)), v);
}

// K 16 in one block of 16, N 2, 4 bits: row 0 is all nibbles 9 (bytes 0x99), row 1 nibbles 0
// at even k and 15 at odd k (bytes 0xF0, the low nibble first); scales 0.5 and 0.25.
NamedTensors nbits_inputs() {
  std::vector<uint8_t> b(16, 0x99);
  std::fill(b.begin() + 8, b.end(), 0xF0);
  return {{"A", f32({1, 16}, std::vector<float>(16, 1.0f))},
          {"B", u8({2, 1, 8}, b)},
          {"scales", f32({2}, {0.5f, 0.25f})}};
}

void nbits_attrs(onnxpb::NodeProto& n) {
  set_int(n, "K", 16);
  set_int(n, "N", 2);
  set_int(n, "block_size", 16);
}

TEST(ContribMatMulNBitsTest, DefaultZeroPointIsEight) {
  // Zero point 8: row 0 is (9 - 8) * 0.5 = 0.5 everywhere, row 1 (0 - 8) * 0.25 = -2 at even
  // k and (15 - 8) * 0.25 = 1.75 at odd k. A of ones sums them: 8 and 8 * (-2 + 1.75) = -2.
  expect_values(run_ms("MatMulNBits", nbits_inputs(), 1, nbits_attrs)[0], {1, 2}, {8, -2});
}

TEST(ContribMatMulNBitsTest, PackedZeroPointsAndBias) {
  // One block per row, so one zero-point byte per row: 9 makes row 0 zero, 0 makes row 1
  // 0 at even k and 15 * 0.25 = 3.75 at odd k (sum 30); bias [1, 2].
  NamedTensors in = nbits_inputs();
  in.push_back({"zero_points", u8({2}, {9, 0})});
  in.push_back({"", Tensor()});
  in.push_back({"bias", f32({2}, {1, 2})});
  expect_values(run_ms("MatMulNBits", in, 1, nbits_attrs)[0], {1, 2}, {1, 32});
}

// Weights as initializers, Constants (also inside If, Loop and Scan bodies) or folded are
// dequantized and packed once; the result equals the path that dequantizes on every run.
TEST(ContribMatMulNBitsTest, PreparedWeightsMatchTheUnpreparedPath) {
  const WeightSource sources[] = {WeightSource::Initializer, WeightSource::Constant,
                                  WeightSource::OuterConstant, WeightSource::Folded};
  const char* nests[] = {"", "I", "L", "S"};
  Random r(17);
  for (int i = 0; i < 8; ++i) {
    const int64_t bits = i % 2 ? 4 : 8, block = 16, k = r.pick(1, 40), n = r.pick(1, 5);
    const int64_t blocks = (k + block - 1) / block;
    NodeCase c;
    c.op = "MatMulNBits";
    c.domain = kMs;
    c.data.emplace_back("a", r.floats({r.pick(1, 3), k}));
    c.weights.emplace_back("b", r.bytes(ElemType::UInt8, {n, blocks, block * bits / 8}));
    c.weights.emplace_back("scales", r.floats({n * blocks}));
    c.weights.emplace_back("zp", r.bytes(ElemType::UInt8, {n * ((blocks * bits + 7) / 8)}));
    c.inputs = {"a", "b", "scales", "zp"};
    c.attrs = [=](onnxpb::NodeProto& node) {
      set_int(node, "K", k);
      set_int(node, "N", n);
      set_int(node, "bits", bits);
      set_int(node, "block_size", block);
    };
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, sources[i % 4], nests[i % 4], threads, 1);
  }
}

TEST(ContribMatMulNBitsTest, BlockSizeBelowSixteenIsInvalid) {
  expect_error_mentioning(
      [] {
        run_ms("MatMulNBits", nbits_inputs(), 1, [](onnxpb::NodeProto& n) {
          set_int(n, "K", 16);
          set_int(n, "N", 2);
          set_int(n, "block_size", 8);
        });
      },
      "block_size must be a power of 2 and at least 16");
}

// ---------------------------------------------------------------------------------------
// MatMulInteger16

template <typename T>
Tensor ints(ElemType type, Dims64 dims, std::vector<T> v) {
  return Tensor::from_vector<T>(type, Dims(std::span<const int64_t>(dims)), v);
}

TEST(ContribMatMulInteger16Test, ResultTypeFollowsTheSignedness) {
  // int16: -32768 * 2 + 2 * 3 = -65530 (beyond int16, exact in int32).
  auto s = run_ms("MatMulInteger16", {{"A", ints<int16_t>(ElemType::Int16, {1, 2}, {-32768, 2})},
                                      {"B", ints<int16_t>(ElemType::Int16, {2, 1}, {2, 3})}});
  EXPECT_EQ(s[0].type(), ElemType::Int32);
  EXPECT_EQ(doubles_of(s[0]), std::vector<double>{-65530});
  // uint16 by uint16: 65535^2 = 4294836225, a uint32.
  auto u = run_ms("MatMulInteger16", {{"A", ints<uint16_t>(ElemType::UInt16, {1, 1}, {65535})},
                                      {"B", ints<uint16_t>(ElemType::UInt16, {1, 1}, {65535})}});
  EXPECT_EQ(u[0].type(), ElemType::UInt32);
  EXPECT_EQ(doubles_of(u[0]), std::vector<double>{4294836225.0});
  // int16 by uint16: -1 * 65535 = -65535, an int32.
  auto m = run_ms("MatMulInteger16", {{"A", ints<int16_t>(ElemType::Int16, {1, 1}, {-1})},
                                      {"B", ints<uint16_t>(ElemType::UInt16, {1, 1}, {65535})}});
  EXPECT_EQ(m[0].type(), ElemType::Int32);
  EXPECT_EQ(doubles_of(m[0]), std::vector<double>{-65535});
}

// ---------------------------------------------------------------------------------------
// DynamicQuantizeMatMul

TEST(ContribDynamicQuantizeMatMulTest, QuantizesAThenScales) {
  // A = [0, 2.55]: scale 2.55 / 255 = 0.01, zero point 0, A_q = [0, 255]. B = [1, 2]:
  // 255 * 2 = 510, times 0.01 * b_scale 0.5 = 2.55, plus bias 1.
  auto y = run_ms("DynamicQuantizeMatMul", {{"A", f32({1, 2}, {0, 2.55f})},
                                            {"B", ints<int8_t>(ElemType::Int8, {2, 1}, {1, 2})},
                                            {"b_scale", f32({1}, {0.5f})},
                                            {"", Tensor()},
                                            {"bias", f32({1}, {1})}});
  expect_values(y[0], {1, 1}, {3.55}, 1e-5);
  // b_zero_point 1: B - 1 = [0, 1].
  auto zp =
      run_ms("DynamicQuantizeMatMul", {{"A", f32({2, 2}, {0, 2.55f, -2.55f, 0})},
                                       {"B", ints<int8_t>(ElemType::Int8, {2, 1}, {1, 2})},
                                       {"b_scale", f32({1}, {0.5f})},
                                       {"b_zero_point", ints<int8_t>(ElemType::Int8, {1}, {1})}});
  // With both rows A's range is [-2.55, 2.55]: scale 0.02, zero point 128 (127.5 to even).
  // Row 0: A_q = [128, 127.5 + 128 -> 255 (saturated)] - 128 = [0, 127]: 127 * 0.02 * 0.5.
  // Row 1: A_q = [0, 128] - 128 = [-128, 0]: -128 * 0 = 0.
  expect_values(zp[0], {2, 1}, {1.27, 0}, 1e-5);
}

// ---------------------------------------------------------------------------------------
// The domain

TEST(ContribDomainTest, ANewerComMicrosoftOpsetIsUnsupported) {
  expect_error_mentioning(
      [] {
        run_node("Gelu", {{"X", f32({1}, {1})}}, 1, {}, 2, "contrib", 1, kMs);
      },
      "imports opset com.microsoft 2");
}

TEST(ContribDomainTest, UnknownAttributeIsInvalid) {
  expect_invalid_model([] {
    run_ms("QuickGelu", {{"X", f32({1}, {1})}}, 1,
           [](onnxpb::NodeProto& n) { set_float(n, "beta", 2.0f); });
  });
}

}  // namespace
}  // namespace bough::test
