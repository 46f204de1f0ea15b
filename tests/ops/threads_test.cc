// Every operator that splits its work across the thread pool (each `parallel_for` under
// src/ops and src/kernels), run on 1 and on 4 threads: the results must be bitwise
// identical. Each case is large enough to split: the comment gives the work items and the
// grain of the split it exercises (the pool runs inline below two grains).
//
// Run under ThreadSanitizer by `scripts/test --tsan` (with the ThreadPool tests).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "model_builder.h"
#include "reference.h"

namespace bough {
namespace {

using test::Rng;

struct Case {
  std::string op;
  test::NamedTensors inputs;
  int outputs = 1;
  test::Attrs attrs;
  int64_t opset = 21;
  std::string domain;  // "" for ai.onnx
};

// A row of the table: the test's name (operator and path) and the case, whose inputs are
// built only when it runs.
struct Row {
  std::string name;
  std::function<Case()> make;
};

Tensor floats(const Dims& shape, uint64_t seed, double lo = -1, double hi = 1) {
  Rng rng(seed);
  return test::random_floats(shape, rng, lo, hi);
}
Tensor doubles(const Dims& shape, uint64_t seed) {
  Rng rng(seed);
  return test::tensor_of<double>(ElemType::Double, shape, [&](int64_t) { return rng.real(-1, 1); });
}
Tensor ints(ElemType t, const Dims& shape, uint64_t seed, int64_t lo, int64_t hi) {
  Rng rng(seed);
  Tensor x(t, shape);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t v = rng.uniform(lo, hi);
    switch (t) {
      case ElemType::Int64:
        x.data<int64_t>()[i] = v;
        break;
      case ElemType::Int32:
        x.data<int32_t>()[i] = static_cast<int32_t>(v);
        break;
      case ElemType::Int8:
        x.data<int8_t>()[i] = static_cast<int8_t>(v);
        break;
      case ElemType::UInt8:
        x.data<uint8_t>()[i] = static_cast<uint8_t>(v);
        break;
      case ElemType::Bool:
        x.data<bool>()[i] = v != 0;
        break;
      default:
        ADD_FAILURE() << "ints of " << elem_name(t);
    }
  }
  return x;
}
Tensor strings(int64_t n, uint64_t seed) {
  Rng rng(seed);
  Tensor x(ElemType::String, Dims{n});
  for (int64_t i = 0; i < n; ++i) x.strings()[i] = "s" + std::to_string(rng.uniform(0, 99999));
  return x;
}
Tensor scalar_f(float v) { return test::f32({}, {v}); }
Tensor scalar_i(int64_t v) { return test::i64({}, {v}); }

test::Attrs ints_attr(const std::string& name, test::Dims64 v) {
  return [=](onnxpb::NodeProto& n) { test::set_ints(n, name, v); };
}
test::Attrs int_attr(const std::string& name, int64_t v) {
  return [=](onnxpb::NodeProto& n) { test::set_int(n, name, v); };
}
test::Attrs string_attr(const std::string& name, const std::string& v) {
  return [=](onnxpb::NodeProto& n) { test::set_string(n, name, v); };
}

// clang-format off
// The table: one row per parallel_for site. n = work items, g = grain (see each site) at
// util::kMinWorkPerThread = 2^17.
const std::vector<Row> kCases = {
  // kernels/elementwise_loops.h unary_map: n = 2^18 elements, g = util::grain_for(bytes per
  // element) = 2^14 for floats (Not, at 2 bytes an element, 2^16).
  {"Exp_unary_map", [] { return Case{"Exp", {{"x", floats({512, 512}, 1)}}}; }},
  // The same counted by the cost of the math (kernels/fast_math.h; by their bytes these
  // 2^12 floats stay on one thread): Erf g = 2^17 / 168 = 781, Gelu g = 2^17 / 240 = 547.
  {"Erf_math_work", [] { return Case{"Erf", {{"x", floats({4, 1024}, 106, -3, 3)}}}; }},
  {"Gelu_math_work", [] { return Case{"Gelu", {{"x", floats({4, 1024}, 107, -3, 3)}}, 1, {}, 20}; }},
  {"Not_unary_map", [] { return Case{"Not", {{"x", ints(ElemType::Bool, {512, 512}, 2, 0, 1)}}}; }},
  // binary_map, one flat loop: n = 2^18, g = 2^13.
  {"Add_flat", [] { return Case{"Add", {{"a", floats({512, 512}, 3)}, {"b", floats({512, 512}, 4)}}}; }},
  // binary_map over the broadcast iterator: n = 256 runs of 1024, g = 2^13 / 1024 = 8.
  {"Sub_broadcast", [] { return Case{"Sub", {{"a", floats({256, 1024}, 5)}, {"b", floats({1024}, 6)}}}; }},
  {"Less_broadcast", [] { return Case{"Less", {{"a", floats({256, 1, 1024}, 7)}, {"b", floats({4, 1}, 8)}}}; }},
  // binary_map on strings: n = 140000, g = 2^13.
  {"StringConcat", [] { return Case{"StringConcat", {{"a", strings(140000, 9)}, {"b", strings(140000, 10)}}, 1, {}, 20}; }},
  // ops/onnx/where.cc flat: n = 2^18, g = 2^13; broadcast: n = 256 runs, g = 8.
  {"Where_flat", [] { return Case{"Where", {{"c", ints(ElemType::Bool, {512, 512}, 11, 0, 1)}, {"x", floats({512, 512}, 12)}, {"y", floats({512, 512}, 13)}}}; }},
  {"Where_broadcast", [] { return Case{"Where", {{"c", ints(ElemType::Bool, {256, 1024}, 14, 0, 1)}, {"x", floats({1024}, 15)}, {"y", scalar_f(7)}}}; }},
  // ops/onnx/regex_full_match.cc: n = 2048 strings, g = 32.
  {"RegexFullMatch", [] { return Case{"RegexFullMatch", {{"x", strings(2048, 16)}}, 1, string_attr("pattern", "s[0-9]*7"), 20}; }},
  // ops/onnx/tfidf_vectorizer.cc: n = 8192 rows, g = 2^17 / (64 * 2 * 4 + 8) = 253.
  {"TfIdfVectorizer", [] { return Case{"TfIdfVectorizer", {{"x", ints(ElemType::Int64, {8192, 64}, 101, 0, 9)}}, 1, [](onnxpb::NodeProto& n) {
    test::set_string(n, "mode", "TFIDF"); test::set_int(n, "min_gram_length", 1); test::set_int(n, "max_gram_length", 2); test::set_int(n, "max_skip_count", 3);
    test::set_ints(n, "ngram_counts", {0, 4}); test::set_ints(n, "ngram_indexes", {7, 6, 5, 4, 3, 2, 1, 0}); test::set_ints(n, "pool_int64s", {1, 2, 3, 4, 1, 2, 2, 3, 3, 4, 4, 1});
    test::set_floats(n, "weights", {0.5f, 1, 2, 0.25f, 3, 1, 1, 2}); }, 9}; }},
  // ops/onnx/quantize_common.h for_each_element: n = 2^18 units, g = 2^13; int4 packs two
  // elements a byte (units of 2, g = 2^12), so chunks must not share a byte.
  {"QuantizeLinear_uint8", [] { return Case{"QuantizeLinear", {{"x", floats({512, 512}, 17, -10, 10)}, {"s", scalar_f(0.1f)}, {"z", ints(ElemType::UInt8, {}, 0, 128, 128)}}}; }},
  {"QuantizeLinear_int4", [] { return Case{"QuantizeLinear", {{"x", floats({512, 511}, 18, -1, 1)}, {"s", scalar_f(0.2f)}, {"z", Tensor::zeros(ElemType::Int4, Dims{})}}}; }},
  {"DequantizeLinear", [] { return Case{"DequantizeLinear", {{"x", ints(ElemType::Int8, {512, 512}, 19, -128, 127)}, {"s", scalar_f(0.5f)}, {"z", ints(ElemType::Int8, {}, 0, 3, 3)}}}; }},
  // ops/onnx/gather.cc: n = outer * indices = 4096 blocks of 64, g = 2^13 / 64 = 128.
  {"Gather", [] { return Case{"Gather", {{"x", floats({1000, 64}, 20)}, {"i", ints(ElemType::Int64, {4096}, 21, -1000, 999)}}}; }},
  // ops/onnx/top_k.cc: n = 4096 rows, g = 2^11 / 64 = 32.
  {"TopK", [] { return Case{"TopK", {{"x", floats({4096, 64}, 22)}, {"k", test::i64({1}, {5})}}, 2}; }},
  // ops/onnx/einsum.cc generic loop: n = 16384 outputs, g = 2^11 / 64 = 32.
  {"Einsum_generic", [] { return Case{"Einsum", {{"x", floats({64, 64, 256}, 23)}}, 1, string_attr("equation", "bij->bj"), 12}; }},
  // ops/onnx/grid_sample.cc: n = 16384 points, g = 512 / 4 channels = 128.
  {"GridSample", [] { return Case{"GridSample", {{"x", floats({1, 4, 64, 64}, 24)}, {"g", floats({1, 128, 128, 2}, 25, -1.1, 1.1)}}, 1, {}, 20}; }},
  // ops/onnx/{average,max,lp}_pool.cc: n = 16 planes * 126 rows, g = 2^13 / (126 * 9) = 8.
  {"AveragePool", [] { return Case{"AveragePool", {{"x", floats({1, 16, 128, 128}, 26)}}, 1, ints_attr("kernel_shape", {3, 3})}; }},
  {"MaxPool", [] { return Case{"MaxPool", {{"x", floats({1, 16, 128, 128}, 27)}}, 2, ints_attr("kernel_shape", {3, 3})}; }},
  {"LpPool", [] { return Case{"LpPool", {{"x", floats({1, 16, 128, 128}, 28)}}, 1, ints_attr("kernel_shape", {3, 3})}; }},
  // kernels/pool_global.h: n = 64 planes, g = 2^13 / 4096 = 2.
  {"GlobalAveragePool", [] { return Case{"GlobalAveragePool", {{"x", floats({1, 64, 64, 64}, 29)}}}; }},
  {"GlobalMaxPool", [] { return Case{"GlobalMaxPool", {{"x", floats({1, 64, 64, 64}, 30)}}}; }},
  {"GlobalLpPool", [] { return Case{"GlobalLpPool", {{"x", floats({1, 64, 64, 64}, 31)}}}; }},
  // kernels/pool_moments.h (statistics) and each op's normalizing loop: n = 64 planes,
  // g = 2^13 / 4096 = 2 (LayerNormalization: 512 rows, g = 16; GroupNormalization: 16
  // groups of 16384, g = 1, then 64 planes, g = 2).
  {"InstanceNormalization", [] { return Case{"InstanceNormalization", {{"x", floats({1, 64, 64, 64}, 32)}, {"s", floats({64}, 33)}, {"b", floats({64}, 34)}}}; }},
  {"LayerNormalization", [] { return Case{"LayerNormalization", {{"x", floats({512, 512}, 35)}, {"s", floats({512}, 36)}, {"b", floats({512}, 37)}}, 3}; }},
  {"GroupNormalization", [] { return Case{"GroupNormalization", {{"x", floats({2, 32, 64, 64}, 38)}, {"s", floats({32}, 39)}, {"b", floats({32}, 40)}}, 1, int_attr("num_groups", 8)}; }},
  // ops/onnx/{softmax,log_softmax,hardmax}.cc: n = 512 rows, g = 2^13 / 512 = 16.
  {"Softmax", [] { return Case{"Softmax", {{"x", floats({512, 512}, 41, -5, 5)}}}; }},
  // The same by the cost of softmax's math: n = 32 rows of 256, g = 2^17 / (256 * 40) = 13
  // (by bytes, 32).
  {"Softmax_math_work", [] { return Case{"Softmax", {{"x", floats({32, 256}, 108, -5, 5)}}}; }},
  {"LogSoftmax", [] { return Case{"LogSoftmax", {{"x", floats({512, 512}, 42, -5, 5)}}}; }},
  {"Hardmax", [] { return Case{"Hardmax", {{"x", floats({512, 512}, 43)}}}; }},
  // ops/onnx/batch_normalization.cc: n = 256 planes, g = 2^13 / 1024 = 8.
  {"BatchNormalization", [] { return Case{"BatchNormalization", {{"x", floats({4, 64, 32, 32}, 44)}, {"s", floats({64}, 45)}, {"b", floats({64}, 46)}, {"m", floats({64}, 47)}, {"v", floats({64}, 48, 0.5, 2)}}, 1, {}, 15}; }},
  // ops/onnx/{lp,rms}_normalization.cc: n = 512 rows, g = 16.
  {"LpNormalization", [] { return Case{"LpNormalization", {{"x", floats({512, 512}, 49)}}}; }},
  {"RMSNormalization", [] { return Case{"RMSNormalization", {{"x", floats({512, 512}, 50)}, {"s", floats({512}, 51)}}, 1, {}, 23}; }},
  // ops/onnx/roi_align.cc: n = 16 regions, g = 1.
  {"RoiAlign", [] {
    Tensor rois = floats({16, 4}, 52, 0, 15);
    for (int64_t r = 0; r < 16; ++r) rois.data<float>()[r * 4 + 2] += 16, rois.data<float>()[r * 4 + 3] += 16;
    return Case{"RoiAlign", {{"x", floats({2, 8, 32, 32}, 53)}, {"r", rois}, {"i", ints(ElemType::Int64, {16}, 54, 0, 1)}}, 1, {}, 22};
  }},
  // ops/onnx/pad.cc reflect (per-axis maps): n = 512 rows, g = 2^13 / 516 = 16; constant
  // (kernels/shape_copy.cc strided_copy): n = 512 runs, g = 2^13 / 512 = 16.
  {"Pad_reflect", [] { return Case{"Pad", {{"x", floats({512, 512}, 55)}, {"p", test::i64({4}, {0, 2, 0, 2})}}, 1, string_attr("mode", "reflect"), 18}; }},
  {"Pad_constant", [] { return Case{"Pad", {{"x", floats({512, 512}, 56)}, {"p", test::i64({4}, {1, 2, 1, 2})}}, 1, {}, 18}; }},
  // kernels/shape_copy.cc strided_copy, through each operator that moves elements:
  // n = 256-512 runs, g = 2^13 / run length (16-32). (A slice whose runs line up end to
  // end collapses into one run and does not split: Slice takes every other row.)
  {"Transpose", [] { return Case{"Transpose", {{"x", floats({512, 512}, 57)}}, 1, ints_attr("perm", {1, 0})}; }},
  {"Slice", [] { return Case{"Slice", {{"x", floats({1024, 512}, 58)}, {"s", test::i64({2}, {0, 1})}, {"e", test::i64({2}, {1024, 511})}, {"a", test::i64({2}, {0, 1})}, {"t", test::i64({2}, {2, 1})}}, 1, {}, 13}; }},
  {"Concat", [] { return Case{"Concat", {{"a", floats({256, 512}, 59)}, {"b", floats({256, 512}, 60)}}, 1, int_attr("axis", 1)}; }},
  {"Expand", [] { return Case{"Expand", {{"x", floats({1, 512}, 61)}, {"s", test::i64({2}, {512, 512})}}}; }},
  {"Tile", [] { return Case{"Tile", {{"x", floats({256, 512}, 62)}, {"r", test::i64({2}, {2, 1})}}}; }},
  {"Split", [] { return Case{"Split", {{"x", floats({512, 512}, 63)}}, 2, [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); test::set_int(n, "num_outputs", 2); }, 18}; }},
  {"CenterCropPad", [] { return Case{"CenterCropPad", {{"x", floats({512, 520}, 64)}, {"s", test::i64({2}, {512, 512})}}, 1, {}, 18}; }},
  // ops/onnx/lrn.cc: n = 64 planes, g = 2^13 / (1024 * 3) = 3.
  {"LRN", [] { return Case{"LRN", {{"x", floats({1, 64, 32, 32}, 65)}}, 1, int_attr("size", 3)}; }},
  // ops/onnx/cum_{sum,prod}.cc: n = 512 rows, g = 2^13 / 512 = 16.
  {"CumSum", [] { return Case{"CumSum", {{"x", floats({512, 512}, 66)}, {"a", scalar_i(1)}}}; }},
  {"CumProd", [] { return Case{"CumProd", {{"x", floats({512, 512}, 67, 0.9, 1.1)}, {"a", scalar_i(1)}}, 1, {}, 26}; }},
  // ops/onnx/softmax_cross_entropy_loss.cc: n = 4096 rows, g = 2^13 / 64 = 128.
  {"SoftmaxCrossEntropyLoss", [] { return Case{"SoftmaxCrossEntropyLoss", {{"x", floats({4096, 64}, 68, -3, 3)}, {"l", ints(ElemType::Int64, {4096}, 69, 0, 63)}}, 2, string_attr("reduction", "none"), 13}; }},
  // ops/onnx/causal_conv_with_state.cc: n = 128 rows, g = 2^13 / (512 * 4) = 4.
  {"CausalConvWithState", [] { return Case{"CausalConvWithState", {{"x", floats({2, 64, 512}, 70)}, {"w", floats({64, 1, 4}, 71)}}, 2, {}, 27}; }},
  // ops/onnx/dft.cc: n = 512 lines, g = 2^11 / 256 = 8.
  {"DFT", [] { return Case{"DFT", {{"x", floats({512, 256, 1}, 72)}}, 1, {}, 17}; }},
  // ops/onnx/stft.cc: n = 4 * 253 frames, g = 2^11 / 256 = 8.
  {"STFT", [] { return Case{"STFT", {{"x", floats({4, 16384, 1}, 73)}, {"step", scalar_i(64)}, {"w", floats({256}, 74, 0, 1)}}, 1, {}, 17}; }},
  // ops/onnx/attention.cc: 512 rows * 128 keys * 128 >> 2^17 work: one block per thread.
  {"Attention", [] { return Case{"Attention", {{"q", floats({1, 4, 128, 64}, 75)}, {"k", floats({1, 4, 128, 64}, 76)}, {"v", floats({1, 4, 128, 64}, 77)}}, 1, int_attr("is_causal", 1), 23}; }},
  // ops/onnx/linear_attention.cc: n = 2 * 2 key/value heads, g = 1 (64 * 32 * 32 * 4 work each).
  // exec/control/flex_attention.cc: batched_matmul for Q·Kᵀ and probs·V; the scaling
  // (n = 8 * 512 * 512 = 2^21 scores, g = 2^17) and the softmax (n = 4096 rows, g = 2^17 / 512
  // = 256); grouped heads (8 over 2) and a soft-capping score_mod, Tanh(x / 20) * 20.
  {"FlexAttention", [] {
    auto soft_cap = [](onnxpb::NodeProto& n) {
      test::GraphBuilder g("soft_cap");
      g.input("x", ElemType::Float, {}, false).output_untyped("out");
      g.initializer("cap", test::f32({}, {20}));
      g.node("Div", {"x", "cap"}, {"d"});
      g.node("Tanh", {"d"}, {"t"});
      g.node("Mul", {"t", "cap"}, {"out"});
      test::set_graph(n, "score_mod", g);
    };
    return Case{"FlexAttention", {{"q", floats({1, 8, 512, 64}, 120)}, {"k", floats({1, 2, 512, 64}, 121)}, {"v", floats({1, 2, 512, 64}, 122)}}, 1, soft_cap, 1, "ai.onnx.preview"};
  }},
  {"LinearAttention", [] { return Case{"LinearAttention", {{"q", floats({2, 64, 4 * 32}, 78)}, {"k", floats({2, 64, 2 * 32}, 79, -0.2, 0.2)}, {"v", floats({2, 64, 2 * 32}, 80)}, {"", Tensor()}, {"g", floats({2, 64, 2}, 81, -0.1, 0)}, {"b", floats({2, 64, 2}, 82, 0, 1)}}, 2, [](onnxpb::NodeProto& n) { test::set_int(n, "q_num_heads", 4); test::set_int(n, "kv_num_heads", 2); }, 27}; }},
  // ops/onnx/rotary_embedding.cc: n = 4 * 256 rows, g = 2^13 / 64 = 128.
  {"RotaryEmbedding", [] {
    Tensor pos(ElemType::Int64, Dims{1, 256});
    for (int64_t i = 0; i < 256; ++i) pos.data<int64_t>()[i] = 255 - i;
    return Case{"RotaryEmbedding", {{"x", floats({1, 8, 256, 64}, 83)}, {"c", floats({256, 32}, 84)}, {"s", floats({256, 32}, 85)}, {"p", pos}}, 1, {}, 23};
  }},
  // ops/onnx/conv.cc one output per group (depthwise): n = 64 groups * 62 rows,
  // g = 2^13 / (62 * 9) = 15.
  {"Conv_depthwise", [] { return Case{"Conv", {{"x", floats({1, 64, 64, 64}, 86)}, {"w", floats({64, 1, 3, 3}, 87)}}, 1, int_attr("group", 64)}; }},
  // ops/onnx/conv.cc's batches split by image (n = 4 images, g = 1), each path's kernel on
  // its image's thread: depthwise, pointwise, direct, tiles, Winograd, and double (conv_image).
  {"Conv_batch_depthwise", [] { return Case{"Conv", {{"x", floats({4, 16, 12, 40}, 160)}, {"w", floats({16, 1, 5, 5}, 161)}, {"b", floats({16}, 162)}}, 1, [](onnxpb::NodeProto& n) { test::set_int(n, "group", 16); test::set_ints(n, "pads", {2, 2, 2, 2}); }}; }},
  {"Conv_batch_pointwise", [] { return Case{"Conv", {{"x", floats({4, 16, 24, 48}, 163)}, {"w", floats({32, 16, 1, 1}, 164)}, {"b", floats({32}, 165)}}}; }},
  {"Conv_batch_direct", [] { return Case{"Conv", {{"x", floats({4, 8, 20, 20}, 166)}, {"w", floats({16, 8, 5, 5}, 167)}, {"b", floats({16}, 168)}}, 1, [](onnxpb::NodeProto& n) { test::set_ints(n, "pads", {2, 2, 2, 2}); }}; }},
  {"Conv_batch_tiles", [] { return Case{"Conv", {{"x", floats({4, 32, 12, 12}, 169)}, {"w", floats({16, 32, 5, 5}, 170)}, {"b", floats({16}, 171)}}}; }},
  {"Conv_batch_winograd", [] { return Case{"Conv", {{"x", floats({4, 64, 16, 16}, 172)}, {"w", floats({64, 64, 3, 3}, 173)}, {"b", floats({64}, 174)}}, 1, [](onnxpb::NodeProto& n) { test::set_ints(n, "pads", {1, 1, 1, 1}); }}; }},
  {"Conv_batch_double", [] { return Case{"Conv", {{"x", doubles({4, 8, 16, 16}, 175)}, {"w", doubles({16, 8, 3, 3}, 176)}}}; }},
  // Conv through kernels/conv_im2col.cc (n = 16 * 9 rows, g = 1) and
  // batched_matmul, then the bias loop (n = 32 channels, g = 1).
  {"Conv_im2col_bias", [] { return Case{"Conv", {{"x", floats({1, 16, 130, 130}, 88)}, {"w", floats({32, 16, 3, 3}, 89)}, {"b", floats({32}, 90)}}}; }},
  // ConvInteger: im2col of uint8 (n = 144 rows, g = 2^12 / 3844 = 2), integer matmul.
  {"ConvInteger", [] { return Case{"ConvInteger", {{"x", ints(ElemType::UInt8, {1, 16, 64, 64}, 91, 0, 255)}, {"w", ints(ElemType::UInt8, {32, 16, 3, 3}, 92, 0, 255)}}, 1, {}, 10}; }},
  // kernels/conv_im2col.cc col2im_add: n = 16 channels, g = 1.
  {"ConvTranspose", [] { return Case{"ConvTranspose", {{"x", floats({1, 32, 32, 32}, 93)}, {"w", floats({32, 16, 3, 3}, 94)}}}; }},
  {"Col2Im", [] { return Case{"Col2Im", {{"x", floats({1, 16 * 9, 1024}, 95)}, {"i", test::i64({2}, {34, 34})}, {"b", test::i64({2}, {3, 3})}}, 1, {}, 18}; }},
  // kernels/deform_im2col.cc: n = 4 offset groups * 9 taps, g = 1,
  // then convolve_columns' batched_matmul.
  {"DeformConv", [] { return Case{"DeformConv", {{"x", floats({1, 16, 66, 66}, 96)}, {"w", floats({16, 8, 3, 3}, 97)}, {"o", floats({1, 72, 64, 64}, 98, -2, 2)}, {"b", floats({16}, 99)}, {"m", floats({1, 36, 64, 64}, 100, 0, 1)}}, 1, [](onnxpb::NodeProto& n) { test::set_int(n, "group", 2); test::set_int(n, "offset_group", 4); }, 19}; }},
  // kernels/conv_resample.cc: nearest copies (gather_axis, n = 2^19 rows of 1, g = 2^13,
  // then 4096 rows of 256, g = 32); linear blends along the last axis (inner 1: n = 2048
  // rows, g = 2^13 / 1024 = 8) and along others (n = 4096 rows, g = 2^13 / 1024 = 8).
  {"Resize_nearest", [] { return Case{"Resize", {{"x", floats({1, 16, 128, 128}, 96)}, {"", Tensor()}, {"s", test::f32({4}, {1, 1, 2, 2})}}, 1, string_attr("mode", "nearest"), 19}; }},
  {"Resize_linear", [] { return Case{"Resize", {{"x", floats({1, 16, 128, 128}, 97)}, {"", Tensor()}, {"s", test::f32({4}, {1, 1, 2, 2})}}, 1, string_attr("mode", "linear"), 19}; }},
  // kernels/matmul.cc batched_matmul: n = 512 rows * 2 column blocks, g = 1; the few-rows
  // a · bᵀ of Gemm's transB: n = 1024 columns, g = 2^13 / (256 * 4) = 8.
  {"MatMul", [] { return Case{"MatMul", {{"a", floats({512, 512}, 98)}, {"b", floats({512, 512}, 99)}}}; }},
  {"Gemm_transB_few_rows", [] { return Case{"Gemm", {{"a", floats({4, 256}, 100)}, {"b", floats({1024, 256}, 101)}}, 1, int_attr("transB", 1)}; }},
  // kernels/gemm_f32.cc few rows, counted by the 4 MiB of b it streams (kernels::gemm_work):
  // n = 4096 / (8 * vector lanes) strips on min(4, 32) threads (by multiply-adds, 8).
  {"MatMul_one_row_streams_b", [] { return Case{"MatMul", {{"a", floats({1, 256}, 109)}, {"b", floats({256, 4096}, 110)}}}; }},
  {"MatMulInteger", [] { return Case{"MatMulInteger", {{"a", ints(ElemType::UInt8, {256, 300}, 102, 0, 255)}, {"b", ints(ElemType::UInt8, {300, 256}, 103, 0, 255)}}, 1, {}, 10}; }},
  // kernels/matmul_nbits.cc: one row, n = 1024 columns in units of 16, m n k = 2^21 (16
  // threads' worth); B fed, so rearranged on the run.
  {"MatMulNBits_one_row", [] {
    auto attrs = [](onnxpb::NodeProto& n) {
      test::set_int(n, "K", 2048);
      test::set_int(n, "N", 1024);
      test::set_int(n, "block_size", 32);
    };
    return Case{"MatMulNBits", {{"a", floats({1, 2048}, 117)}, {"b", ints(ElemType::UInt8, {1024, 64, 16}, 118, 0, 255)}, {"scales", floats({65536}, 119, 0.01, 0.1)}}, 1, attrs, 1, "com.microsoft"};
  }},
  // ops/onnx/swi_glu.cc: n = 2^18, g = 2^13.
  {"SwiGLU", [] { return Case{"SwiGLU", {{"a", floats({512, 512}, 104)}, {"b", floats({512, 512}, 105)}}, 1, {}, 28}; }},
  // ops/ml/tree_ensemble.cc: n = 4096 rows, g = 8. One tree: x0 <= 0 ? 1.5 : -2.5.
  {"TreeEnsemble", [] {
    auto attrs = [](onnxpb::NodeProto& n) {
      test::set_ints(n, "nodes_featureids", {0});
      test::set_ints(n, "nodes_truenodeids", {0});
      test::set_ints(n, "nodes_falsenodeids", {1});
      test::set_ints(n, "nodes_trueleafs", {1});
      test::set_ints(n, "nodes_falseleafs", {1});
      test::set_tensor(n, "nodes_splits", test::f32({1}, {0}));
      test::set_tensor(n, "nodes_modes", Tensor::zeros(ElemType::UInt8, Dims{1}));
      test::set_ints(n, "leaf_targetids", {0, 0});
      test::set_tensor(n, "leaf_weights", test::f32({2}, {1.5f, -2.5f}));
      test::set_ints(n, "tree_roots", {0});
      test::set_int(n, "n_targets", 1);
    };
    return Case{"TreeEnsemble", {{"x", floats({4096, 2}, 106)}}, 1, attrs, 5, "ai.onnx.ml"};
  }},
  // ops/training/optimizer.h run_optimizer: n = 2^16 elements, g = 2^17 / (7 * 16) = 1171.
  {"Adam", [] { return Case{"Adam", {{"R", test::f32({}, {0.1f})}, {"T", test::i64({}, {3})}, {"X", floats({65536}, 107)}, {"G", floats({65536}, 108)}, {"V", floats({65536}, 109)}, {"H", floats({65536}, 110, 0, 1)}}, 3, {}, 1, "ai.onnx.preview.training"}; }},
  // QLinearConv: ConvInteger's im2col and integer matmul (integer_conv.cc), then requantized.
  {"QLinearConv", [] { return Case{"QLinearConv", {{"x", ints(ElemType::UInt8, {1, 16, 64, 64}, 111, 0, 255)}, {"xs", test::f32({}, {0.02f})}, {"xz", ints(ElemType::UInt8, {}, 112, 0, 255)}, {"w", ints(ElemType::UInt8, {32, 16, 3, 3}, 113, 0, 255)}, {"ws", floats({32}, 114, 0.001, 0.01)}, {"wz", ints(ElemType::UInt8, {32}, 115, 0, 255)}, {"ys", test::f32({}, {4.0f})}, {"yz", ints(ElemType::UInt8, {}, 116, 0, 255)}}, 1, {}, 10}; }},
};
// clang-format on

class Threads : public ::testing::TestWithParam<size_t> {};

// The outputs on 4 and on 2 threads are those on 1, bit for bit. The many-thread runs go
// first: their buffers then come from the pool holding other cases' data, so an element no
// chunk wrote shows, where after the 1-thread run it could find the right value left over.
TEST_P(Threads, SameResultsOnOneTwoAndFourThreads) {
  const Case c = kCases[GetParam()].make();
  const std::string dir = "threads_" + kCases[GetParam()].name;
  const std::vector<Tensor> four =
      test::run_node(c.op, c.inputs, c.outputs, c.attrs, c.opset, dir, 4, c.domain);
  const std::vector<Tensor> two =
      test::run_node(c.op, c.inputs, c.outputs, c.attrs, c.opset, dir, 2, c.domain);
  const std::vector<Tensor> one =
      test::run_node(c.op, c.inputs, c.outputs, c.attrs, c.opset, dir, 1, c.domain);
  ASSERT_EQ(one.size(), four.size());
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    ASSERT_TRUE(one[i].defined()) << "output " << i;
    EXPECT_GT(one[i].numel(), 0) << "output " << i;
    EXPECT_TRUE(test::bitwise_equal(one[i], four[i])) << "output " << i << ", 4 threads";
    EXPECT_TRUE(test::bitwise_equal(one[i], two[i])) << "output " << i << ", 2 threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, Threads, ::testing::Range<size_t>(0, kCases.size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return kCases[info.param].name;
                         });

}  // namespace
}  // namespace bough
