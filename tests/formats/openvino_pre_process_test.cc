// The legacy <pre-process> block (formats/openvino/pre_process.cc): OpenVINO's IR reader
// subtracts a mean per channel from one input, given as values or as mean images in the
// .bin (src/frontends/ir/src/input_model.cpp). Expected values are worked out by hand.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// x: f32 [1, 3, 1, 2] -> Result, and `block` before the layers.
std::string net_with(const std::string& block) {
  return R"(<?xml version="1.0"?>
<net name="pp" version="10">
)" + block +
         R"(
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="1,3,1,2"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>1</dim><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="y" type="Result" version="opset1">
      <input><port id="0"><dim>1</dim><dim>3</dim><dim>1</dim><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
</net>
)";
}

const Tensor kX = f32({1, 3, 1, 2}, {10, 20, 30, 40, 50, 60});

TEST(OpenVinoPreProcess, MeanValuesPerChannelAreSubtracted) {
  // Channel ids out of order; a Result reading the Parameter gets the difference too.
  std::string xml = net_with(R"(<pre-process mean-precision="FP32" reference-layer-name="x">
    <channel id="2"><mean value="3"/></channel>
    <channel id="0"><mean value="1"/></channel>
    <channel id="1"><mean value="2.5"/></channel>
  </pre-process>)");
  NamedValues out =
      test::run_ir(test::save_ir(test::scratch_dir("ov_pp_values"), "m", xml), {{"x", kX}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()),
            (std::vector<float>{9, 19, 27.5f, 37.5f, 47, 57}));
}

TEST(OpenVinoPreProcess, MeanImagesComeFromTheWeights) {
  // No reference-layer-name: the first input of rank 4. Channels without ids count up;
  // each image is 1x2 floats: [1, 2], [3, 4], [5, 6] at offsets 0, 8, 16.
  std::string xml = net_with(R"(<pre-process mean-precision="FP32">
    <channel><mean offset="0" size="8"/></channel>
    <channel><mean offset="8" size="8"/></channel>
    <channel><mean offset="16" size="8"/></channel>
  </pre-process>)");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_pp_images"), "m", xml,
                                               test::bytes_of<float>({1, 2, 3, 4, 5, 6})),
                                 {{"x", kX}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{9, 18, 27, 36, 45, 54}));
}

TEST(OpenVinoPreProcess, InconsistentBlocksAreRefused) {
  const std::string two_means = R"(<pre-process reference-layer-name="x">
    <channel id="0"><mean value="1"/></channel><channel id="1"><mean value="2"/></channel>
  </pre-process>)";
  Error e = test::ir_load_error(test::scratch_dir("ov_pp_count"), net_with(two_means));
  EXPECT_NE(e.message().find("2 means for 3 channels"), std::string::npos) << e.what();
  const std::string unknown = R"(<pre-process reference-layer-name="z">
    <channel id="0"><mean value="1"/></channel></pre-process>)";
  e = test::ir_load_error(test::scratch_dir("ov_pp_unknown"), net_with(unknown));
  EXPECT_NE(e.message().find("refers to 'z', which is not an input"), std::string::npos)
      << e.what();
  const std::string short_image = R"(<pre-process reference-layer-name="x">
    <channel><mean offset="0" size="8"/></channel><channel><mean offset="8" size="8"/></channel>
    <channel><mean offset="16" size="8"/></channel></pre-process>)";
  e = test::ir_load_error(test::scratch_dir("ov_pp_short"), net_with(short_image),
                          test::bytes_of<float>({1, 2, 3, 4, 5}));
  EXPECT_NE(e.message().find("past the end of the 20-byte weights file"), std::string::npos)
      << e.what();
  // A hostile shape of 10^12 channels is refused by the count of means, before anything
  // is sized by it.
  std::string huge =
      test::replaced(net_with(two_means), "shape=\"1,3,1,2\"", "shape=\"1,1000000000000,1,2\"");
  huge = test::replaced(huge, "<dim>1</dim><dim>3</dim>", "<dim>1</dim><dim>1000000000000</dim>");
  e = test::ir_load_error(test::scratch_dir("ov_pp_huge"), huge);
  EXPECT_NE(e.message().find("2 means for 1000000000000 channels"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace bough
