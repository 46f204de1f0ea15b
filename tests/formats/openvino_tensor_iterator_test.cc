// OpenVINO TensorIterator-1, read as an ONNX Scan: sliced inputs, back edges as states,
// concatenated outputs forward and backward. The port-map layout follows OpenVINO's
// TensorIterator-1 specification (infrastructure/tensor-iterator-1.rst in
// openvinotoolkit/openvino). Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// x [2, 3] sliced on axis 1 into [2, 1] parts; h carried from h0 [2, 1]: h = h + part.
// Outputs: the last h, and h of every iteration concatenated on axis 1 forward (port 3)
// and backward (port 4).
const char* kTensorIterator = R"(<?xml version="1.0"?>
<net name="ti" version="10">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,3"/>
      <output><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></output>
    </layer>
    <layer id="1" name="h0" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,1"/>
      <output><port id="0" precision="FP32"><dim>2</dim><dim>1</dim></port></output>
    </layer>
    <layer id="2" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0"><dim>2</dim><dim>3</dim></port><port id="1"><dim>2</dim><dim>1</dim></port></input>
      <output>
        <port id="2" precision="FP32" names="h_last"><dim>2</dim><dim>1</dim></port>
        <port id="3" precision="FP32" names="hs"><dim>2</dim><dim>3</dim></port>
        <port id="4" precision="FP32" names="hs_reversed"><dim>2</dim><dim>3</dim></port>
      </output>
      <port_map>
        <input axis="1" external_port_id="0" internal_layer_id="0" part_size="1" stride="1"/>
        <input external_port_id="1" internal_layer_id="1"/>
        <output external_port_id="2" internal_layer_id="3"/>
        <output axis="1" external_port_id="3" internal_layer_id="3" part_size="1" stride="1"/>
        <output axis="1" external_port_id="4" internal_layer_id="3" part_size="1" stride="-1" start="-1" end="0"/>
      </port_map>
      <back_edges><edge from-layer="3" from-port="0" to-layer="1" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="part" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,1"/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="h" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,1"/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>1</dim></port></output>
          </layer>
          <layer id="2" name="h_next" type="Add" version="opset1">
            <input><port id="0"><dim>2</dim><dim>1</dim></port><port id="1"><dim>2</dim><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>2</dim><dim>1</dim></port></output>
          </layer>
          <layer id="3" name="h_out" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="3" name="r0" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>1</dim></port></input></layer>
    <layer id="4" name="r1" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>3</dim></port></input></layer>
    <layer id="5" name="r2" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>3</dim></port></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="3" to-layer="4" to-port="0"/>
    <edge from-layer="2" from-port="4" to-layer="5" to-port="0"/>
  </edges>
</net>
)";

NamedValues run(const std::string& xml, const std::string& dir) {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml);
  return test::run_ir(path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"h0", f32({2, 1}, {0, 0})}});
}

TEST(OpenVinoTensorIterator, SlicedInputStateAndConcatenatedOutputs) {
  NamedValues out = run(kTensorIterator, "ov_ti");
  ASSERT_EQ(out.size(), 3u);
  // parts [1, 4], [2, 5], [3, 6]: h = [1, 4], [3, 9], [6, 15]
  EXPECT_EQ(out[0].first, "h_last");
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{6, 15}));
  // forward: [[1, 3, 6], [4, 9, 15]]
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  // backward: the first iteration's part last: [[6, 3, 1], [15, 9, 4]]
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{6, 3, 1, 15, 9, 4}));
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(OpenVinoTensorIterator, BackwardSlicedInput) {
  std::string xml = replaced(kTensorIterator, R"(part_size="1" stride="1"/>
        <input external_port_id="1")",
                             R"(part_size="1" stride="-1" start="-1" end="0"/>
        <input external_port_id="1")");
  NamedValues out = run(xml, "ov_ti_back");
  // parts [3, 6], [2, 5], [1, 4]: h = [3, 6], [5, 11], [6, 15]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{6, 15}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 5, 6, 6, 11, 15}));
}

TEST(OpenVinoTensorIterator, LastValueWithoutBackEdge) {
  // Without the back edge, h is h0 in every iteration: h_next = part.
  std::string xml = replaced(
      kTensorIterator,
      R"(<back_edges><edge from-layer="3" from-port="0" to-layer="1" to-port="0"/></back_edges>)",
      "");
  NamedValues out = run(xml, "ov_ti_last");
  // The last iteration's h_next: the third part, [3, 6]; all of them: x itself.
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3, 6}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

// x [2, 4] cut on axis 1 into parts [2, 2] by `slicing` (the port map's attributes); h
// carried from h0 [2, 2]: h = h + part. Outputs: the last h and every h concatenated on
// axis 1.
std::string ti_in_parts(const std::string& slicing) {
  return R"(<?xml version="1.0"?>
<net name="ti_parts" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,4"/>
      <output><port id="0" precision="FP32"><dim>2</dim><dim>4</dim></port></output>
    </layer>
    <layer id="1" name="h0" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,2"/>
      <output><port id="0" precision="FP32"><dim>2</dim><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0"><dim>2</dim><dim>4</dim></port><port id="1"><dim>2</dim><dim>2</dim></port></input>
      <output>
        <port id="2" precision="FP32" names="h_last"><dim>2</dim><dim>2</dim></port>
        <port id="3" precision="FP32" names="hs"><dim>2</dim><dim>4</dim></port>
      </output>
      <port_map>
        <input axis="1" external_port_id="0" internal_layer_id="0" )" +
         slicing + R"(/>
        <input external_port_id="1" internal_layer_id="1"/>
        <output external_port_id="2" internal_layer_id="3"/>
        <output axis="1" external_port_id="3" internal_layer_id="3" part_size="2" stride="2"/>
      </port_map>
      <back_edges><edge from-layer="3" from-port="0" to-layer="1" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="part" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,2"/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="h" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,2"/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>2</dim></port></output>
          </layer>
          <layer id="2" name="h_next" type="Add" version="opset1">
            <input><port id="0"><dim>2</dim><dim>2</dim></port><port id="1"><dim>2</dim><dim>2</dim></port></input>
            <output><port id="2" precision="FP32"><dim>2</dim><dim>2</dim></port></output>
          </layer>
          <layer id="3" name="h_out" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="3" name="r0" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>2</dim></port></input></layer>
    <layer id="4" name="r1" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>4</dim></port></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="3" to-layer="4" to-port="0"/>
  </edges>
</net>
)";
}

NamedValues run_parts(const std::string& slicing, const std::string& dir) {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", ti_in_parts(slicing));
  return test::run_ir(
      path, {{"x", f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {"h0", f32({2, 2}, {0, 0, 0, 0})}});
}

TEST(OpenVinoTensorIterator, PartsOfTwo) {
  NamedValues out = run_parts(R"(part_size="2" stride="2")", "ov_ti_parts");
  // parts [[1, 2], [5, 6]], [[3, 4], [7, 8]]: h = [[1, 2], [5, 6]], [[4, 6], [12, 14]]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 6, 12, 14}));
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 4, 6, 5, 6, 12, 14}));
}

TEST(OpenVinoTensorIterator, PartsOfTwoBackward) {
  NamedValues out =
      run_parts(R"(part_size="2" stride="-2" start="-1" end="0")", "ov_ti_parts_back");
  // The last part first, each in its own order: [[3, 4], [7, 8]], then [[1, 2], [5, 6]]:
  // h = [[3, 4], [7, 8]], [[4, 6], [12, 14]]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 6, 12, 14}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 4, 4, 6, 7, 8, 12, 14}));
}

TEST(OpenVinoTensorIterator, PartsThatOverlapAreRefused) {
  // Parts of 2 taken every 1 element overlap: no ONNX Scan takes them.
  std::string path = test::save_ir(test::scratch_dir("ov_ti_overlap"), "m",
                                   ti_in_parts(R"(part_size="2" stride="1")"));
  try {
    Model::load(path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(e.where().find("body/Parameter \"part\" (id 0)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bough
