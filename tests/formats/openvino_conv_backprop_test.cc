// ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1 (formats/openvino/ops/
// conv_backprop.cc) read from hand-written IR and run as read and after IR -> ONNX -> IR
// (run_ir), and ONNX's ConvTranspose written as IR. Expected values are worked out by hand in
// the comments, or by `transposed`, the operation's definition as a loop.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// A 2-D transposed convolution by its definition: x [N, C, H, W] and w in ONNX's layout
// [C, M/G, KH, KW]; every x[n, c, i, j] adds x * w[c, m, a, b] to the full output at
// (i*s0 + a*d0, j*s1 + b*d1) for the M/G output channels of c's group. The result is the
// full output from (begin0, begin1) on, out_h x out_w (zeros past the full output's end).
std::vector<float> transposed(const std::vector<float>& x, std::vector<int64_t> xs,
                              const std::vector<float>& w, std::vector<int64_t> ws, int64_t groups,
                              std::vector<int64_t> s, std::vector<int64_t> d,
                              std::vector<int64_t> begin, int64_t out_h, int64_t out_w) {
  const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], MG = ws[1], KH = ws[2], KW = ws[3];
  const int64_t M = MG * groups, CG = C / groups;
  const int64_t FH = s[0] * (H - 1) + (KH - 1) * d[0] + 1,
                FW = s[1] * (W - 1) + (KW - 1) * d[1] + 1;
  std::vector<float> full(static_cast<size_t>(N * M * FH * FW), 0.0f);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t mg = 0; mg < MG; ++mg)
        for (int64_t i = 0; i < H; ++i)
          for (int64_t j = 0; j < W; ++j)
            for (int64_t a = 0; a < KH; ++a)
              for (int64_t b = 0; b < KW; ++b) {
                const int64_t m = (c / CG) * MG + mg;
                const int64_t p = i * s[0] + a * d[0], q = j * s[1] + b * d[1];
                full[static_cast<size_t>(((n * M + m) * FH + p) * FW + q)] +=
                    x[static_cast<size_t>(((n * C + c) * H + i) * W + j)] *
                    w[static_cast<size_t>(((c * MG + mg) * KH + a) * KW + b)];
              }
  std::vector<float> y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t i = 0; i < out_h; ++i)
        for (int64_t j = 0; j < out_w; ++j) {
          const int64_t p = i + begin[0], q = j + begin[1];
          y.push_back(p < FH && q < FW ? full[static_cast<size_t>(((n * M + m) * FH + p) * FW + q)]
                                       : 0.0f);
        }
  return y;
}

std::vector<float> iota(size_t n, float from = 1) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
  return v;
}

std::string floats_bin(const std::vector<float>& v) {
  std::string s;
  for (float f : v) s += test::bytes_of<float>({f});
  return s;
}

// x [1, 1, 3] = [1, 2, 3] and the filter [1, 1, 3] = [1, 10, 100] with stride 2: the full
// transposed convolution adds x[i] * w[k] at 2i + k, F = 2 * 2 + 3 = 7 elements:
//   [1, 10, 100 + 2, 20, 200 + 3, 30, 300] = [1, 10, 102, 20, 203, 30, 300].
// `output_shape` (when not empty) is a Const third input; the output is declared [1, 1, y].
std::vector<float> run_1d(const std::string& dir, const std::string& data, int64_t y,
                          const std::vector<int64_t>& output_shape = {}) {
  std::vector<test::OvSource> sources{{test::ov_parameter(0, "x", {1, 1, 3}), {1, 1, 3}},
                                      {test::ov_const(1, "w", {1, 1, 3}, "f32", 0), {1, 1, 3}}};
  std::string bin = test::bytes_of<float>({1, 10, 100});
  if (!output_shape.empty()) {
    sources.push_back({test::ov_const(2, "out", {1}, "i64", 12), {1}});
    bin += test::bytes_of<int64_t>({output_shape[0]});
  }
  std::string xml = test::ov_one_layer_net(sources, "ConvolutionBackpropData", "opset1",
                                           R"(strides="2" dilations="1" )" + data, {1, 1, y}, "y");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml, bin),
                                 {{"x", f32({1, 1, 3}, {1, 2, 3})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 1, y}));
  return floats_of(out[0].second.tensor());
}

TEST(OpenVinoConvBackprop, ExplicitPadsCutAndOutputPaddingAppends) {
  // Y = 7 - 1 - 0 + 1 = 7: the full output from 1 on, one zero past its end.
  EXPECT_EQ(run_1d("ov_deconv_explicit", R"(pads_begin="1" pads_end="0" output_padding="1")", 7),
            (std::vector<float>{10, 102, 20, 203, 30, 300, 0}));
  // pads_end cuts the end: Y = 7 - 0 - 2 = 5.
  EXPECT_EQ(
      run_1d("ov_deconv_explicit_end", R"(pads_begin="0" pads_end="2" auto_pad="explicit")", 5),
      (std::vector<float>{1, 10, 102, 20, 203}));
}

TEST(OpenVinoConvBackprop, AutoPadWithoutOutputShapeMeansNoPadding) {
  // OpenVINO's rule: same_upper, same_lower and valid all ignore the pads and give the full
  // F = 7 (ONNX's SAME_UPPER would give X * s = 6). In any letter case.
  for (const char* mode : {"SAME_UPPER", "same_lower", "Valid"})
    EXPECT_EQ(run_1d("ov_deconv_auto",
                     std::string(R"(pads_begin="1" pads_end="1" auto_pad=")") + mode + "\"", 7),
              (std::vector<float>{1, 10, 102, 20, 203, 30, 300}))
        << mode;
}

TEST(OpenVinoConvBackprop, OutputShapeSplitsThePaddingByAutoPad) {
  // output_shape 4: total = 7 - 4 = 3. same_upper puts the larger half first (begin 2,
  // end 1); same_lower the smaller (begin 1, end 2): the reverse of ONNX's SAME_* split.
  EXPECT_EQ(run_1d("ov_deconv_os_upper", R"(auto_pad="same_upper")", 4, {4}),
            (std::vector<float>{102, 20, 203, 30}));
  EXPECT_EQ(run_1d("ov_deconv_os_lower", R"(auto_pad="same_lower")", 4, {4}),
            (std::vector<float>{10, 102, 20, 203}));
  // output_padding joins the total: 7 + 1 - 4 = 4, begin 2 either way.
  EXPECT_EQ(run_1d("ov_deconv_os_adj", R"(auto_pad="same_lower" output_padding="1")", 4, {4}),
            (std::vector<float>{102, 20, 203, 30}));
  // Explicit pads with output_shape: the output starts at pads_begin (pads_end is ignored).
  EXPECT_EQ(
      run_1d("ov_deconv_os_explicit", R"(pads_begin="1" pads_end="0" auto_pad="explicit")", 4, {4}),
      (std::vector<float>{10, 102, 20, 203}));
  // An output_shape past the full output: padding max(7 - 9, 0) = 0, zeros appended.
  EXPECT_EQ(run_1d("ov_deconv_os_long", R"(auto_pad="same_upper")", 9, {9}),
            (std::vector<float>{1, 10, 102, 20, 203, 30, 300, 0, 0}));
}

// Filter [G, C_IN/G, C_OUT/G, kH, kW] = [2, 2, 2, 2, 2] on x [1, 4, 2, 2]: the same bytes are
// ONNX's [C_IN, C_OUT/G, kH, kW] = [4, 2, 2, 2], which `transposed` reads.
TEST(OpenVinoConvBackprop, GroupConvolutionBackpropDataKeepsGroupsApart) {
  const std::vector<float> x = iota(16), w = iota(32, -10);
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 4, 2, 2}), {1, 4, 2, 2}},
       {test::ov_const(1, "w", {2, 2, 2, 2, 2}, "f32", 0), {2, 2, 2, 2, 2}}},
      "GroupConvolutionBackpropData", "opset1",
      R"(strides="2,1" dilations="1,2" pads_begin="1,0" pads_end="0,1" output_padding="1,0" )"
      R"(auto_pad="explicit")",
      {1, 4, 4, 3}, "y");
  NamedValues out =
      test::run_ir(test::save_ir(test::scratch_dir("ov_group_deconv"), "m", xml, floats_bin(w)),
                   {{"x", f32({1, 4, 2, 2}, x)}});
  // H: 2 * 1 + 1 + 1 = 4, less pads_begin 1, plus output_padding 1: 4. W: 1 + 2 + 1 = 4, less
  // pads_end 1: 3.
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 4, 4, 3}));
  EXPECT_EQ(floats_of(out[0].second.tensor()),
            transposed(x, {1, 4, 2, 2}, w, {4, 2, 2, 2}, 2, {2, 1}, {1, 2}, {1, 0}, 4, 3));
}

TEST(OpenVinoConvBackprop, RefusesWhatItCannotExpress) {
  auto net = [](const std::string& data, bool shape_param) {
    return test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1, 3}), {1, 1, 3}},
                                   {test::ov_const(1, "w", {1, 1, 3}, "f32", 0), {1, 1, 3}},
                                   {shape_param ? test::ov_parameter(2, "out", {1}, "i64")
                                                : test::ov_const(2, "out", {1}, "i64", 12),
                                    {1}}},
                                  "ConvolutionBackpropData", "opset1", R"(strides="2" )" + data,
                                  {1, 1, 4}, "y");
  };
  const std::string bin = test::bytes_of<float>({1, 10, 100}) + test::bytes_of<int64_t>({4});
  // output_shape computed at run time: the padding it implies cannot be an ONNX attribute.
  Error e =
      test::ir_load_error("ov_deconv_shape_param", net(R"(auto_pad="same_upper")", true), bin);
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(e.what()).find("output_shape"), std::string::npos) << e.what();
  // The data's spatial dim unknown: the padding cannot be worked out.
  std::string dynamic =
      test::replaced(net(R"(auto_pad="same_upper")", false), "shape=\"1,1,3\"", "shape=\"1,1,?\"");
  dynamic = test::replaced(dynamic, "<dim>1</dim><dim>1</dim><dim>3</dim></port></output>",
                           "<dim>1</dim><dim>1</dim><dim>-1</dim></port></output>");
  EXPECT_EQ(test::ir_load_error("ov_deconv_dynamic", dynamic, bin).kind(), ErrorKind::Unsupported);
  EXPECT_EQ(
      test::ir_load_error("ov_deconv_bad_pad", net(R"(auto_pad="sideways")", false), bin).kind(),
      ErrorKind::InvalidModel);
  EXPECT_EQ(
      test::ir_load_error("ov_deconv_negative", net(R"(pads_begin="-1" pads_end="0")", false), bin)
          .kind(),
      ErrorKind::InvalidModel);
}

// One ConvTranspose node on x [1, 4, 2, 2] with weights [4, 2, 2, 2] (and bias [4] when
// `bias`), written as IR; returns the IR's output, which must also be the ONNX model's.
Tensor onnx_written(const std::string& dir, const test::Attrs& attrs, bool bias,
                    const std::string& expect_in_xml) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {1, 4, 2, 2}).output("y", ElemType::Float, {}, false);
  g.initializer("w", f32({4, 2, 2, 2}, iota(32, -10)));
  if (bias) g.initializer("b", f32({4}, {100, 200, 300, 400}));
  attrs(g.node("ConvTranspose",
               bias ? std::vector<std::string>{"x", "w", "b"} : std::vector<std::string>{"x", "w"},
               {"y"}));
  const std::string scratch = test::scratch_dir(dir);
  const std::string path = test::save_model(test::make_model(g, 17), scratch, "m.onnx");
  const NamedValues inputs{{"x", f32({1, 4, 2, 2}, iota(16))}};
  const Tensor want = Session(Model::load(path)).run(inputs)[0].second.tensor();
  openvino::IrFiles files = openvino::write_ir(*onnx::read_model_file(path));
  EXPECT_NE(files.xml.find(expect_in_xml), std::string::npos) << files.xml;
  test::expect_ov_reader_accepts(files.xml, dir);
  Tensor got =
      test::run_ir(test::save_ir(scratch, "m", files.xml, files.bin), inputs)[0].second.tensor();
  EXPECT_EQ(got.shape().vec(), want.shape().vec());
  EXPECT_EQ(floats_of(got), floats_of(want));
  return got;
}

TEST(OpenVinoConvBackprop, ConvTransposeWrittenWithGroupsAndBias) {
  Tensor y = onnx_written(
      "ov_write_deconv_group",
      [](onnxpb::NodeProto& n) {
        test::set_int(n, "group", 2);
        test::set_ints(n, "strides", {2, 1});
        test::set_ints(n, "dilations", {1, 2});
        test::set_ints(n, "pads", {1, 0, 0, 1});
        test::set_ints(n, "output_padding", {1, 0});
      },
      true, R"(type="GroupConvolutionBackpropData")");
  std::vector<float> want = transposed(iota(16), {1, 4, 2, 2}, iota(32, -10), {4, 2, 2, 2}, 2,
                                       {2, 1}, {1, 2}, {1, 0}, 4, 3);
  for (size_t i = 0; i < want.size(); ++i) want[i] += 100.0f * static_cast<float>(1 + i / 12);
  EXPECT_EQ(floats_of(y), want);
}

TEST(OpenVinoConvBackprop, ConvTransposeOutputShapeAndSameWrittenAsExplicitPads) {
  // ONNX's SAME_LOWER aims at X * s = 4 per axis of a full 2 * 1 + 1 * 2 + 1 = 5: the
  // padding of 1 goes first.
  Tensor same = onnx_written(
      "ov_write_deconv_same",
      [](onnxpb::NodeProto& n) {
        test::set_ints(n, "strides", {2, 2});
        test::set_ints(n, "dilations", {2, 2});
        test::set_string(n, "auto_pad", "SAME_LOWER");
      },
      false, R"(pads_begin="1,1" pads_end="0,0")");
  EXPECT_EQ(floats_of(same), transposed(iota(16), {1, 4, 2, 2}, iota(32, -10), {4, 2, 2, 2}, 1,
                                        {2, 2}, {2, 2}, {1, 1}, 4, 4));
  // output_shape [3, 2] of a full [4, 4] (stride 2 on H, dilation 2 on W): totals 1 and 2,
  // ONNX's NOTSET rule puts the larger half first: begins 1 and 1, the end cut 0 and 1.
  Tensor shaped = onnx_written(
      "ov_write_deconv_shape",
      [](onnxpb::NodeProto& n) {
        test::set_ints(n, "strides", {2, 1});
        test::set_ints(n, "dilations", {1, 2});
        test::set_ints(n, "output_shape", {3, 2});
      },
      false, R"(pads_begin="1,1" pads_end="0,1")");
  EXPECT_EQ(floats_of(shaped), transposed(iota(16), {1, 4, 2, 2}, iota(32, -10), {4, 2, 2, 2}, 1,
                                          {2, 1}, {1, 2}, {1, 1}, 3, 2));
}

TEST(OpenVinoConvBackprop, ConvTransposeWithOutputShapeNeedsKnownDims) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {1, 4, 2, 2}).output("y", ElemType::Float, {}, false);
  g.initializer("w", f32({4, 2, 2, 2}, iota(32)));
  test::set_ints(g.node("ConvTranspose", {"x", "w"}, {"y"}), "output_shape", {3, 3});
  // The input's spatial dims left unknown.
  g.name_input_dim(0, 3, "w");
  auto model = onnx::read_model_file(test::save_model(
      test::make_model(g, 17), test::scratch_dir("ov_write_deconv_dyn"), "m.onnx"));
  try {
    openvino::write_ir(*model);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("output_shape"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bough
