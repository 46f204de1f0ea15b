// Interpolate-1, -4 and -11 read from IR written as OpenVINO's serializer writes it, each run
// as read and after IR -> ONNX (Resize) -> IR (Interpolate-11) by run_ir; ONNX's Resize
// written as Interpolate-11; and the refusals where ONNX's Resize means something else.
// Expected values follow OpenVINO's Interpolate specifications (image/interpolate-4.rst),
// worked out by hand in the comments or by a short loop over the specification's formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

struct ConstInput {
  std::vector<int64_t> dims;
  std::string type;  // "i64" or "f32"
  std::string bytes;
};

// An Interpolate of opset `version` reading x [x_dims] and the constants `consts`, in port
// order; writes the .bin into `weights`.
std::string interpolate_net(const std::string& version, const std::vector<int64_t>& x_dims,
                            const std::vector<ConstInput>& consts, const std::string& data,
                            const std::vector<int64_t>& out_dims, std::string& weights) {
  std::vector<test::OvSource> sources{{test::ov_parameter(0, "x", x_dims), x_dims}};
  weights.clear();
  for (size_t i = 0; i < consts.size(); ++i) {
    sources.push_back({test::ov_const(static_cast<int>(i + 1), "c" + std::to_string(i),
                                      consts[i].dims, consts[i].type, weights.size()),
                       consts[i].dims});
    weights += consts[i].bytes;
  }
  return test::ov_one_layer_net(sources, "Interpolate", version, data, out_dims, "y");
}

ConstInput i64s(std::initializer_list<int64_t> v) {
  return {{static_cast<int64_t>(v.size())}, "i64", test::bytes_of<int64_t>(v)};
}
ConstInput f32s(std::initializer_list<float> v) {
  return {{static_cast<int64_t>(v.size())}, "f32", test::bytes_of<float>(v)};
}

std::vector<float> run_net(const std::string& dir, const std::string& xml,
                           const std::string& weights, const std::vector<int64_t>& x_dims,
                           const std::vector<float>& x) {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, weights);
  NamedValues out = test::run_ir(path, {{"x", f32(x_dims, x)}});
  return floats_of(out[0].second.tensor());
}

void expect_near_all(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

// Interpolate-4 nearest by scales 2, half_pixel: the coordinates (o + 0.5) / 2 - 0.5 are
// -0.25, 0.25, 0.75, 1.25, rounded (round_prefer_floor) to 0, 0, 1, 1. The mode is written
// in upper case, which OpenVINO reads too. The sizes input is there but unused.
TEST(OpenVinoInterpolate, Nearest4ByScales) {
  std::string w;
  std::string xml = interpolate_net(
      "opset4", {1, 1, 2, 2}, {i64s({4, 4}), f32s({2, 2}), i64s({2, 3})},
      R"(mode="NEAREST" shape_calculation_mode="scales" coordinate_transformation_mode="half_pixel" )"
      R"(nearest_mode="round_prefer_floor" antialias="false" pads_begin="0,0,0,0" )"
      R"(pads_end="0,0,0,0" cube_coeff="-0.75")",
      {1, 1, 4, 4}, w);
  EXPECT_EQ(run_net("ov_interp_nearest4", xml, w, {1, 1, 2, 2}, {1, 2, 3, 4}),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

// linear_onnx by sizes with align_corners: 3 -> 5 along the last axis reads x at o * 2 / 4 =
// 0, 0.5, 1, 1.5, 2: [0, 2, 10] gives 0, 1, 2, 6, 10.
TEST(OpenVinoInterpolate, LinearOnnx4BySizesAlignCorners) {
  std::string w;
  std::string xml = interpolate_net(
      "opset4", {1, 1, 1, 3}, {i64s({1, 5}), f32s({1, 1}), i64s({2, 3})},
      R"(mode="linear_onnx" shape_calculation_mode="sizes" )"
      R"(coordinate_transformation_mode="align_corners" nearest_mode="round_prefer_floor" )"
      R"(antialias="false" pads_begin="0,0,0,0" pads_end="0,0,0,0" cube_coeff="-0.75")",
      {1, 1, 1, 5}, w);
  expect_near_all(run_net("ov_interp_linear_onnx", xml, w, {1, 1, 1, 3}, {0, 2, 10}),
                  {0, 1, 2, 6, 10});
}

// Interpolate-1's align_corners defaults to true: the same resize, the attribute left out.
TEST(OpenVinoInterpolate, Linear1AlignsCornersByDefault) {
  std::string w;
  std::string xml = interpolate_net("opset1", {1, 1, 1, 3}, {i64s({1, 5})},
                                    R"(axes="2,3" mode="linear" antialias="0" pads_begin="0" )"
                                    R"(pads_end="0")",
                                    {1, 1, 1, 5}, w);
  expect_near_all(run_net("ov_interp_linear1", xml, w, {1, 1, 1, 3}, {0, 2, 10}), {0, 1, 2, 6, 10});
}

// Interpolate-1's nearest rounds "simple": up (ceil) on a downsampled axis, down on an
// upsampled one. Axis 2: 2 -> 3, coordinates o / 1.5 = 0, 0.67, 1.33 -> rows 0, 0, 1; axis
// 3: 4 -> 3, coordinates o / 0.75 = 0, 1.33, 2.67 -> columns 0, 2, 3 (rounding to nearest
// would give 0, 1, 3).
TEST(OpenVinoInterpolate, Nearest1RoundsEachAxisByItsDirection) {
  std::string w;
  std::string xml = interpolate_net("opset1", {1, 1, 2, 4}, {i64s({3, 3})},
                                    R"(axes="2,3" mode="nearest" align_corners="0" )"
                                    R"(antialias="0" pads_begin="0" pads_end="0")",
                                    {1, 1, 3, 3}, w);
  EXPECT_EQ(run_net("ov_interp_nearest1", xml, w, {1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}),
            (std::vector<float>{1, 3, 4, 1, 3, 4, 5, 7, 8}));
}

// pads_begin/pads_end pad x with zeros first: [5, 7] -> [0, 5, 7, 0], then sizes 2 (scale
// 0.5): half_pixel coordinates (o + 0.5) * 2 - 0.5 = 0.5, 2.5, rounded down at the half:
// 0 and 2, so [0, 7].
TEST(OpenVinoInterpolate, PadsComeFirst) {
  std::string w;
  std::string xml = interpolate_net(
      "opset4", {1, 1, 1, 2}, {i64s({2}), f32s({1}), i64s({3})},
      R"(mode="nearest" shape_calculation_mode="sizes" coordinate_transformation_mode="half_pixel" )"
      R"(nearest_mode="round_prefer_floor" antialias="false" pads_begin="0,0,0,1" )"
      R"(pads_end="0,0,0,1" cube_coeff="-0.75")",
      {1, 1, 1, 2}, w);
  EXPECT_EQ(run_net("ov_interp_pads", xml, w, {1, 1, 1, 2}, {5, 7}), (std::vector<float>{0, 7}));
}

// Interpolate-11's "linear" with antialias, scale 0.5 on [0, 4, 8, 12]: the coordinates are
// 0.5 and 2.5, and the triangle stretched by 2 weighs in-range neighbours at distance d by
// 1 - |d| / 2: for 0.5, x0..x2 by 0.75, 0.75, 0.25 (sum 1.75), (0 * .75 + 4 * .75 + 8 * .25)
// / 1.75 = 20 / 7; for 2.5, x1..x3 by 0.25, 0.75, 0.75: (1 + 6 + 9) / 1.75 = 64 / 7.
TEST(OpenVinoInterpolate, Linear11AntialiasWeighsInRangeNeighbours) {
  std::string w;
  std::string xml = interpolate_net(
      "opset11", {1, 1, 1, 4}, {f32s({0.5f}), i64s({3})},
      R"(mode="Linear" shape_calculation_mode="scales" coordinate_transformation_mode="half_pixel" )"
      R"(nearest_mode="round_prefer_floor" antialias="true" pads_begin="0,0,0,0" )"
      R"(pads_end="0,0,0,0" cube_coeff="-0.75")",
      {1, 1, 1, 2}, w);
  expect_near_all(run_net("ov_interp_antialias", xml, w, {1, 1, 1, 4}, {0, 4, 8, 12}),
                  {20.0f / 7, 64.0f / 7});
}

// OpenVINO copies an axis whose length does not change, whatever its scale: 2 * 1.2 counts
// 2 (ONNX would still move the coordinates by 1.2 and give [1, 4]).
TEST(OpenVinoInterpolate, AnAxisKeepingItsLengthIsCopied) {
  std::string w;
  std::string xml = interpolate_net(
      "opset11", {1, 1, 1, 2}, {f32s({1.2f}), i64s({3})},
      R"(mode="linear" shape_calculation_mode="scales" coordinate_transformation_mode="half_pixel" )"
      R"(nearest_mode="round_prefer_floor" antialias="false" pads_begin="0,0,0,0" )"
      R"(pads_end="0,0,0,0" cube_coeff="-0.75")",
      {1, 1, 1, 2}, w);
  EXPECT_EQ(run_net("ov_interp_identity", xml, w, {1, 1, 1, 2}, {1, 5}),
            (std::vector<float>{1, 5}));
}

// A scale of 2 on a length the file leaves unknown is read (OpenVINO and ONNX count 2 * len
// alike): asymmetric nearest with floor reads x at o / 2.
TEST(OpenVinoInterpolate, ScaleTwoOnALengthNotKnown) {
  std::string w;
  std::string xml = interpolate_net(
      "opset11", {1, -1}, {f32s({2.0f}), i64s({1})},
      R"(mode="nearest" shape_calculation_mode="scales" coordinate_transformation_mode="asymmetric" )"
      R"(nearest_mode="floor" antialias="false" pads_begin="0,0" pads_end="0,0" cube_coeff="-0.75")",
      {1, -1}, w);
  EXPECT_EQ(run_net("ov_interp_dynamic", xml, w, {1, 3}, {1, 2, 3}),
            (std::vector<float>{1, 1, 2, 2, 3, 3}));
}

// The cubic coefficients of the specification's get_cubic_coeff, for the fraction s.
std::vector<double> cubic_coeffs(double s, double a) {
  return {a * (s - 1) * (s - 1) * s, ((a + 2) * s - (a + 3)) * s * s + 1,
          (((-a - 2) * s + (2 * a + 3)) * s - a) * s, -a * s * s * (s - 1)};
}

// Interpolate-11 cubic by scale 2, asymmetric, cube_coeff -0.5: each output o reads
// x[floor(o / 2) - 1 .. + 2] (clamped to the edges) with the specification's coefficients.
TEST(OpenVinoInterpolate, Cubic11WithItsCoefficient) {
  std::string w;
  std::string xml = interpolate_net(
      "opset11", {1, 1, 1, 4}, {f32s({2.0f}), i64s({3})},
      R"(mode="cubic" shape_calculation_mode="scales" coordinate_transformation_mode="asymmetric" )"
      R"(nearest_mode="round_prefer_floor" antialias="false" pads_begin="0,0,0,0" )"
      R"(pads_end="0,0,0,0" cube_coeff="-0.5")",
      {1, 1, 1, 8}, w);
  const std::vector<float> x{1, 4, 2, 8};
  std::vector<float> want;
  for (int o = 0; o < 8; ++o) {
    const double c = o / 2.0, base = std::floor(c);
    const std::vector<double> k = cubic_coeffs(c - base, -0.5);
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
      const int at = std::clamp(static_cast<int>(base) + i - 1, 0, 3);
      sum += k[static_cast<size_t>(i)] * x[static_cast<size_t>(at)];
    }
    want.push_back(static_cast<float>(sum));
  }
  expect_near_all(run_net("ov_interp_cubic", xml, w, {1, 1, 1, 4}, x), want);
}

// Refused, each naming why.
Error interpolate_error(const std::string& dir, const std::string& version,
                        const std::vector<ConstInput>& consts, const std::string& data,
                        const std::vector<int64_t>& x_dims = {1, 1, 4, 10},
                        const std::vector<int64_t>& out_dims = {1, 1, 4, 10}) {
  std::string w;
  std::string xml = interpolate_net(version, x_dims, consts, data, out_dims, w);
  return test::ir_load_error(dir, xml, w);
}

std::string attrs(const std::string& mode, const std::string& coord, const std::string& shape,
                  const std::string& antialias = "false") {
  return "mode=\"" + mode + "\" shape_calculation_mode=\"" + shape +
         "\" coordinate_transformation_mode=\"" + coord +
         "\" nearest_mode=\"round_prefer_floor\" antialias=\"" + antialias +
         "\" pads_begin=\"0,0,0,0\" pads_end=\"0,0,0,0\" cube_coeff=\"-0.75\"";
}

TEST(OpenVinoInterpolate, RefusesWhatResizeCannotSay) {
  // Pillow's filters.
  Error pillow =
      interpolate_error("ov_interp_pillow", "opset11", {f32s({0.5f, 0.5f}), i64s({2, 3})},
                        attrs("bilinear_pillow", "half_pixel", "scales"));
  EXPECT_EQ(pillow.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(pillow.what()).find("bilinear_pillow"), std::string::npos);
  // tf_half_pixel_for_nn, Resize-11's alone.
  Error tf =
      interpolate_error("ov_interp_tf", "opset4", {i64s({4, 10}), f32s({1, 1}), i64s({2, 3})},
                        attrs("nearest", "tf_half_pixel_for_nn", "sizes"));
  EXPECT_NE(std::string(tf.what()).find("tf_half_pixel_for_nn"), std::string::npos);
  // Scale 0.7 on 10: OpenVINO counts trunc(10 * (0.7 + 1e-6)) = 7, ONNX floor(6.9999998) = 6.
  Error rounding =
      interpolate_error("ov_interp_rounding", "opset11", {f32s({0.7f}), i64s({3})},
                        attrs("nearest", "half_pixel", "scales"), {1, 1, 4, 10}, {1, 1, 4, 7});
  EXPECT_EQ(rounding.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(rounding.what()).find("trunc(len * (scale + 1e-6)) is 7"),
            std::string::npos)
      << rounding.what();
  // antialias with one axis down and one up: OpenVINO narrows the upsampled axis's filter.
  Error mixed = interpolate_error("ov_interp_mixed", "opset11", {f32s({0.5f, 2.0f}), i64s({2, 3})},
                                  attrs("linear", "half_pixel", "scales", "true"), {1, 1, 4, 10},
                                  {1, 1, 2, 20});
  EXPECT_NE(std::string(mixed.what()).find("both down- and upsampled"), std::string::npos);
  // Scale 1.25 on a length not known: floor(len * 1.25) == len for len 2 and 3, where
  // OpenVINO copies and ONNX moves the coordinates.
  Error unknown =
      interpolate_error("ov_interp_unknown_len", "opset11", {f32s({1.25f}), i64s({3})},
                        attrs("nearest", "half_pixel", "scales"), {1, 1, 4, -1}, {1, 1, 4, -1});
  EXPECT_NE(std::string(unknown.what()).find("of a length not known"), std::string::npos)
      << unknown.what();
  // Interpolate-1's area mode.
  Error area = interpolate_error("ov_interp_area", "opset1", {i64s({2, 5})},
                                 R"(axes="2,3" mode="area" align_corners="0")");
  EXPECT_NE(std::string(area.what()).find("area"), std::string::npos);
}

// ONNX's Resize written as Interpolate-11: the IR runs with the values ONNX's Resize gives.
std::vector<float> write_and_run(const std::string& dir, test::GraphBuilder& g, int64_t opset,
                                 const Tensor& x, std::string* xml_out = nullptr) {
  std::string d = test::scratch_dir(dir);
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, opset), d, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the written IR");
  if (xml_out) *xml_out = files.xml;
  std::string path = test::save_ir(d, "m", files.xml, files.bin);
  NamedValues out = test::run_ir(path, {{"x", x}});
  return floats_of(out[0].second.tensor());
}

// A bilinear resize of the spatial axes of [1, 1, 2, 2] by scales [1, 1, 2, 2] becomes
// linear_onnx on axes 2 and 3 (the axes of scale 1 are left out). half_pixel coordinates
// -0.25, 0.25, 0.75, 1.25 clamp to 0 and 1: a row of [1, 3] gives 1, 1.5, 2.5, 3.
TEST(OpenVinoInterpolate, ResizeLinearIsWrittenAsLinearOnnx) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {1, 1, 2, 2}).output("y", ElemType::Float, {1, 1, 4, 4});
  g.initializer("scales", f32({4}, {1, 1, 2, 2}));
  test::set_string(g.node("Resize", {"x", "", "scales"}, {"y"}, "resize"), "mode", "linear");
  std::string xml;
  std::vector<float> y =
      write_and_run("ov_resize_linear", g, 19, f32({1, 1, 2, 2}, {1, 3, 1, 3}), &xml);
  EXPECT_NE(xml.find(R"(mode="linear_onnx")"), std::string::npos);
  std::vector<float> row{1, 1.5, 2.5, 3}, want;
  for (int r = 0; r < 4; ++r) want.insert(want.end(), row.begin(), row.end());
  expect_near_all(y, want);
}

// Resize-10's nearest (asymmetric, floor up and ceil down) is Interpolate's "simple":
// 4 -> 2 by 0.5 reads x at 0 and 2.
TEST(OpenVinoInterpolate, Resize10IsWrittenAsSimpleNearest) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {1, 4}).output("y", ElemType::Float, {1, 2});
  g.initializer("scales", f32({2}, {1, 0.5f}));
  g.node("Resize", {"x", "scales"}, {"y"}, "resize");
  std::string xml;
  EXPECT_EQ(write_and_run("ov_resize10", g, 10, f32({1, 4}, {1, 2, 3, 4}), &xml),
            (std::vector<float>{1, 3}));
  EXPECT_NE(xml.find(R"(nearest_mode="simple")"), std::string::npos);
}

void expect_write_refused(const std::string& dir, test::GraphBuilder& g, const std::string& why) {
  auto model = onnx::read_model_file(
      test::save_model(test::make_model(g, 19), test::scratch_dir(dir), "m.onnx"));
  try {
    openvino::write_ir(*model);
    ADD_FAILURE() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(OpenVinoInterpolate, ResizeWithoutAnInterpolateMeaningIsRefused) {
  {  // tf_crop_and_resize
    test::GraphBuilder g;
    g.input("x", ElemType::Float, {1, 4}).output("y", ElemType::Float, {1, 2});
    g.initializer("roi", f32({4}, {0, 0, 1, 1})).initializer("scales", f32({2}, {1, 0.5f}));
    test::set_string(g.node("Resize", {"x", "roi", "scales"}, {"y"}, "resize"),
                     "coordinate_transformation_mode", "tf_crop_and_resize");
    expect_write_refused("ov_resize_crop", g, "tf_crop_and_resize");
  }
  {  // a scale that keeps the length but moves the coordinates: 2 * 1.2 -> 2
    test::GraphBuilder g;
    g.input("x", ElemType::Float, {1, 2}).output("y", ElemType::Float, {1, 2});
    g.initializer("scales", f32({2}, {1, 1.2f}));
    test::set_string(g.node("Resize", {"x", "", "scales"}, {"y"}, "resize"), "mode", "linear");
    expect_write_refused("ov_resize_same_length", g, "copies the axis");
  }
  {  // antialias without exclude_outside: ONNX repeats the edge in the widened filter
    test::GraphBuilder g;
    g.input("x", ElemType::Float, {1, 8}).output("y", ElemType::Float, {1, 4});
    g.initializer("scales", f32({2}, {1, 0.5f}));
    auto& n = g.node("Resize", {"x", "", "scales"}, {"y"}, "resize");
    test::set_string(n, "mode", "linear");
    test::set_int(n, "antialias", 1);
    expect_write_refused("ov_resize_antialias", g, "exclude_outside");
  }
}

}  // namespace
}  // namespace bough
