// FakeQuantize-1 (formats/openvino/ops/fake_quantize.cc), read as ONNX elementwise nodes and
// run as read and after IR -> ONNX -> IR (run_ir), where those nodes become OpenVINO's
// elementwise layers. Expected values are worked out by hand from OpenVINO's reference
// (reference/fake_quantize.hpp), with inputs whose arithmetic is exact in float.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// x [4, 3]; in_low [1, 3] = [0, -1, 2] and in_high [1, 3] = [4, 1, -2] per column (the last
// reversed); out_low 1 and out_high 9 as scalars; all broadcast by numpy's rule.
std::string fake_quantize_net(const std::string& data) {
  return test::ov_one_layer_net({{test::ov_parameter(0, "x", {4, 3}), {4, 3}},
                                 {test::ov_const(1, "il", {1, 3}, "f32", 0), {1, 3}},
                                 {test::ov_const(2, "ih", {1, 3}, "f32", 12), {1, 3}},
                                 {test::ov_const(3, "ol", {}, "f32", 24), {}},
                                 {test::ov_const(4, "oh", {}, "f32", 28), {}}},
                                "FakeQuantize", "opset1", data, {4, 3}, "y");
}

const std::string kRanges = test::bytes_of<float>({0, -1, 2}) + test::bytes_of<float>({4, 1, -2}) +
                            test::bytes_of<float>({1, 9});

TEST(OpenVinoFakeQuantize, FollowsOpenVinosReference) {
  // levels 5: q = round((x - il) / (ih - il) * 4) / 4 * 8 + 1, rounding half to even;
  // x <= min(il, ih) gives 1, x > max(il, ih) gives 9.
  const std::string path =
      test::save_ir(test::scratch_dir("ov_fake_quantize"), "m",
                    fake_quantize_net(R"(levels="5" auto_broadcast="numpy")"), kRanges);
  NamedValues out =
      test::run_ir(path, {{"x", f32({4, 3}, {0.5, 0.25, -1, 1.5, 1, 2, -3, -2, 2.5, 4, 5, -2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()),
            (std::vector<float>{
                // column 0: 0.5 * 1 = 0.5 rounds to 0; column 1: (1.25 / 2) * 4 = 2.5 rounds
                // to 2 (2 * 2 + 1); column 2: (-3 / -4) * 4 = 3 (3 * 2 + 1).
                1, 5, 7,
                // 1.5 rounds to 2; x = in_high is still inside (4 -> 9); (0 / -4) * 4 = 0.
                5, 9, 1,
                // below min(il, ih): 1, 1; above max(2, -2) = 2: 9 (the formula would give 1).
                1, 1, 9,
                // 4 = in_high: 9; 5 > 1: 9; -2 <= min(2, -2): 1 (the formula would give 9).
                9, 9, 1}));
}

TEST(OpenVinoFakeQuantize, RefusesWhatItCannotExpress) {
  EXPECT_EQ(test::ir_load_error("ov_fq_levels", fake_quantize_net(R"(levels="1")"), kRanges).kind(),
            ErrorKind::InvalidModel);
  EXPECT_EQ(test::ir_load_error("ov_fq_no_levels", fake_quantize_net(""), kRanges).kind(),
            ErrorKind::InvalidModel);
  EXPECT_EQ(test::ir_load_error("ov_fq_pdpd",
                                fake_quantize_net(R"(levels="5" auto_broadcast="pdpd")"), kRanges)
                .kind(),
            ErrorKind::Unsupported);
}

}  // namespace
}  // namespace bough
