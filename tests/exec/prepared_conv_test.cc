// Conv and ConvTranspose with constant W and B (prepared once at plan time) against the same
// models with the weights fed as graph inputs (read on every run), on random shapes, groups,
// strides, pads and dilations, 1-D and 2-D, at 1 and 2 threads, with the weights as
// initializers, Constants, folded Unsqueeze/Reshape(Constant)s, and Constants captured by If
// branches and Loop/Scan bodies.
#include <gtest/gtest.h>

#include "exec/prepared_models.h"

namespace bough::test {
namespace {

// transposed: ConvTranspose, whose W is (C x M/group x k...).
NodeCase conv_case(Random& r, bool transposed) {
  const int64_t rank = r.pick(1, 2), groups = r.pick(1, 3), cg = r.pick(1, 3), mg = r.pick(1, 3),
                n = r.pick(1, 2);
  Dims64 x{n, groups * cg}, w = transposed ? Dims64{groups * cg, mg} : Dims64{groups * mg, cg};
  Dims64 kernel, strides, dilations, pads(static_cast<size_t>(2 * rank)), adj;
  // One case in four is a pointwise convolution (1x1, stride 1, no padding).
  const bool pointwise = r.pick(0, 3) == 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t k = pointwise ? 1 : r.pick(1, 3), s = pointwise ? 1 : r.pick(1, 2),
                  dil = pointwise ? 1 : r.pick(1, 2);
    kernel.push_back(k);
    strides.push_back(s);
    dilations.push_back(dil);
    x.push_back(r.pick((k - 1) * dil + 1, 7));
    w.push_back(k);
    pads[static_cast<size_t>(d)] = pointwise ? 0 : r.pick(0, 1);
    pads[static_cast<size_t>(rank + d)] = pointwise ? 0 : r.pick(0, 1);
    adj.push_back(s > 1 ? r.pick(0, s - 1) : 0);
  }
  NodeCase c;
  c.op = transposed ? "ConvTranspose" : "Conv";
  c.data.emplace_back("X", r.floats(x));
  c.weights.emplace_back("W", r.floats(w));
  const bool with_b = r.pick(0, 2) != 0;
  if (with_b) c.weights.emplace_back("B", r.floats({groups * mg}));
  c.inputs = {"X", "W"};
  if (with_b) c.inputs.push_back("B");
  c.attrs = [=](onnxpb::NodeProto& node) {
    set_int(node, "group", groups);
    set_ints(node, "kernel_shape", kernel);
    set_ints(node, "strides", strides);
    set_ints(node, "dilations", dilations);
    set_ints(node, "pads", pads);
    if (transposed) set_ints(node, "output_padding", adj);
  };
  return c;
}

void check_op(bool transposed, unsigned seed) {
  Random r(seed);
  for (int i = 0; i < 16; ++i) {
    const NodeCase c = conv_case(r, transposed);
    const WeightSource sources[] = {WeightSource::Initializer, WeightSource::Constant,
                                    WeightSource::Folded, WeightSource::OuterConstant};
    const char* nests[] = {"", "I", "SI", "ILI", "L"};
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, sources[i % 4], nests[i % 5], threads, c.weights.size());
  }
}

TEST(PreparedConv, ConvMatchesTheUnpreparedPath) { check_op(false, 21); }
TEST(PreparedConv, ConvTransposeMatchesTheUnpreparedPath) { check_op(true, 22); }

// The float paths that prepare more on their first run (kernels/conv_few_positions.h: Wᵀ
// packed; kernels/conv_direct.h: W blocked per block size; kernels/conv_winograd.h: W
// transformed, then blocked) against the unprepared path: an STFT-like 1-D Conv of 20
// filters over 6 frames, and 2-D stride-1 3x3 Convs of 20 filters on 5-wide and 40-wide
// rows (two block sizes) with 3 input channels (direct) and 32 (Winograd), each run twice.
TEST(PreparedConv, FewPositionsDirectAndWinogradPathsMatchTheUnpreparedPath) {
  Random r(23);
  NodeCase stft;
  stft.op = "Conv";
  stft.inputs = {"X", "W", "B"};
  stft.data.emplace_back("X", r.floats({1, 1, 40}));
  stft.weights.emplace_back("W", r.floats({20, 1, 8}));
  stft.weights.emplace_back("B", r.floats({20}));
  stft.attrs = [](onnxpb::NodeProto& n) {
    set_ints(n, "strides", {8});
    set_ints(n, "pads", {4, 4});
  };
  for (int64_t channels : {3, 32})
    for (int64_t width : {5, 40}) {
      NodeCase image;
      image.op = "Conv";
      image.inputs = {"X", "W"};
      image.data.emplace_back("X", r.floats({2, channels, 6, width}));
      image.weights.emplace_back("W", r.floats({20, channels, 3, 3}));
      image.attrs = [](onnxpb::NodeProto& n) { set_ints(n, "pads", {1, 0, 1, 2}); };
      for (int threads : {1, 2})
        expect_same_as_unprepared(image, WeightSource::Initializer, "L", threads, 1);
    }
  for (int threads : {1, 2})
    expect_same_as_unprepared(stft, WeightSource::Constant, "L", threads, 2);
}

// Worked by hand: a 1-D Conv of 2 groups, X channels (1, 2, 3) and (1, 1, 1), kernel 2,
// W group 0 = (1, -1), group 1 = (2, 0.5), B = (10, 20):
//   channel 0: (1 - 2, 2 - 3) + 10 = (9, 9); channel 1: (2 + 0.5, 2 + 0.5) + 20 = (22.5, 22.5).
TEST(PreparedConv, GroupedConvByHand) {
  NodeCase c;
  c.op = "Conv";
  c.inputs = {"X", "W", "B"};
  c.data.emplace_back("X", f32({1, 2, 3}, {1, 2, 3, 1, 1, 1}));
  c.weights.emplace_back("W", f32({2, 1, 2}, {1, -1, 2, 0.5f}));
  c.weights.emplace_back("B", f32({2}, {10, 20}));
  c.attrs = [](onnxpb::NodeProto& n) { set_int(n, "group", 2); };
  const std::string path = save_nested(c, WeightSource::Initializer, "");
  EXPECT_EQ(prepared_weights(path), 2u);
  const auto out = run_nested(c, WeightSource::Initializer, "", path, 1);
  EXPECT_EQ(out[0], (std::vector<double>{9, 9, 22.5, 22.5}));
}

// Worked by hand: a 1-D ConvTranspose, stride 2, X = (1, 2) in one channel, W = (1, 10, 100)
// into one channel: Y = 1·(1, 10, 100, 0, 0) + 2·(0, 0, 1, 10, 100) = (1, 10, 102, 20, 200).
TEST(PreparedConv, ConvTransposeByHand) {
  NodeCase c;
  c.op = "ConvTranspose";
  c.inputs = {"X", "W"};
  c.data.emplace_back("X", f32({1, 1, 2}, {1, 2}));
  c.weights.emplace_back("W", f32({1, 1, 3}, {1, 10, 100}));
  c.attrs = [](onnxpb::NodeProto& n) { set_ints(n, "strides", {2}); };
  const std::string path = save_nested(c, WeightSource::Folded, "");
  EXPECT_EQ(prepared_weights(path), 1u);
  const auto out = run_nested(c, WeightSource::Folded, "", path, 1);
  EXPECT_EQ(out[0], (std::vector<double>{1, 10, 102, 20, 200}));
}

}  // namespace
}  // namespace bough::test
