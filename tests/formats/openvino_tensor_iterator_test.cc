// OpenVINO TensorIterator-1, read as an ONNX Scan: sliced inputs, back edges as states,
// concatenated outputs forward and backward. The port-map layout follows OpenVINO's
// TensorIterator-1 specification (infrastructure/tensor-iterator-1.rst in
// openvinotoolkit/openvino). Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino_test_util.h"
#include "ir/graph.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// x [2, n] cut on axis 1 into parts [2, p] as `slicing` (the port map's attributes) says; h
// carried from h0 [2, p]: h = h + part. Outputs: the last h, and h of every iteration
// concatenated on axis 1 forward (port 3) and backward (port 4).
std::string ti_net(int64_t n, int64_t p, const std::string& slicing) {
  using test::ov_dims;
  const std::string x = ov_dims({2, n}), h = ov_dims({2, p}), all = ov_dims({2, n}),
                    part = std::to_string(p);
  return R"(<?xml version="1.0"?>
<net name="ti" version="10">
  <layers>
)" + test::ov_parameter(0, "x", {2, n}) +
         test::ov_parameter(1, "h0", {2, p}) + R"(
    <layer id="2" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0">)" +
         x + R"(</port><port id="1">)" + h + R"(</port></input>
      <output>
        <port id="2" precision="FP32" names="h_last">)" +
         h + R"(</port>
        <port id="3" precision="FP32" names="hs">)" +
         all + R"(</port>
        <port id="4" precision="FP32" names="hs_reversed">)" +
         all + R"(</port>
      </output>
      <port_map>
        <input axis="1" external_port_id="0" internal_layer_id="0" )" +
         slicing + R"(/>
        <input external_port_id="1" internal_layer_id="1"/>
        <output external_port_id="2" internal_layer_id="3"/>
        <output axis="1" external_port_id="3" internal_layer_id="3" part_size=")" +
         part + R"(" stride=")" + part + R"("/>
        <output axis="1" external_port_id="4" internal_layer_id="3" part_size=")" +
         part + R"(" stride="-)" + part + R"(" start="-1" end="0"/>
      </port_map>
      <back_edges><edge from-layer="3" from-port="0" to-layer="1" to-port="0"/></back_edges>
      <body>
        <layers>
)" + test::ov_parameter(0, "part", {2, p}) +
         test::ov_parameter(1, "h", {2, p}) + R"(
          <layer id="2" name="h_next" type="Add" version="opset1">
            <input><port id="0">)" +
         h + R"(</port><port id="1">)" + h + R"(</port></input>
            <output><port id="2" precision="FP32">)" +
         h + R"(</port></output>
          </layer>
)" + test::ov_result(3, "h_out", {2, p}) +
         R"(        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
)" + test::ov_result(3, "r0", {2, p}) +
         test::ov_result(4, "r1", {2, n}) + test::ov_result(5, "r2", {2, n}) + R"(  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="3" to-layer="4" to-port="0"/>
    <edge from-layer="2" from-port="4" to-layer="5" to-port="0"/>
  </edges>
</net>
)";
}

const char* kForward = R"(part_size="1" stride="1")";

// Runs `xml` on x = [[1 .. n], [n + 1 .. 2n]] and h0 = 0.
NamedValues run(const std::string& xml, const std::string& dir, int64_t n = 3, int64_t p = 1) {
  std::vector<float> x;
  for (int64_t i = 1; i <= 2 * n; ++i) x.push_back(static_cast<float>(i));
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml);
  return test::run_ir(path, {{"x", f32({2, n}, x)},
                             {"h0", f32({2, p}, std::vector<float>(static_cast<size_t>(2 * p)))}});
}

TEST(OpenVinoTensorIterator, SlicedInputStateAndConcatenatedOutputs) {
  NamedValues out = run(ti_net(3, 1, kForward), "ov_ti");
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

// OpenVINO's own test file (corpus/ti_sliced_input.xml): x [1, 2, 3] sliced on axis 2 in
// parts of 1, the body returning its Parameter [1, 2, 1] as it is. The ONNX Scan hands the
// body slices of [1, 2]: its input must say so, and the body's output must not be that
// input itself (ONNX Runtime 1.30 gives zeros for such a Scan output; an Identity in
// between, it gives x).
TEST(OpenVinoTensorIterator, ScanBodyInputIsTypedAndNotReturnedAsItIs) {
  const std::string xml =
      test::source_dir() + "/tests/fixtures/openvino/corpus/ti_sliced_input.xml";
  std::unique_ptr<ir::Model> back =
      onnx::read_model_bytes(onnx::write_model_bytes(*openvino::read_model_file(xml)), xml, "");
  const ir::Node* scan = nullptr;
  for (const auto& n : back->graph->nodes)
    if (n->op_type == "Scan") scan = n.get();
  ASSERT_NE(scan, nullptr);
  const ir::Graph* body = nullptr;
  for (const ir::Attribute& a : scan->attributes)
    if (a.name == "body") body = a.g.get();
  ASSERT_NE(body, nullptr);
  ASSERT_EQ(body->inputs.size(), 1u);
  const ir::Type& t = body->inputs[0]->type;
  EXPECT_EQ(t.elem, ElemType::Float);
  ASSERT_TRUE(t.shape.rank_known);
  ASSERT_EQ(t.shape.dims.size(), 2u);
  EXPECT_EQ(t.shape.dims[0].value, 1);
  EXPECT_EQ(t.shape.dims[1].value, 2);
  ASSERT_EQ(body->outputs.size(), 1u);
  EXPECT_NE(body->outputs[0], body->inputs[0]);
  ASSERT_NE(body->outputs[0]->producer, nullptr);
  EXPECT_EQ(body->outputs[0]->producer->op_type, "Identity");
}

TEST(OpenVinoTensorIterator, BackwardSlicedInput) {
  NamedValues out =
      run(ti_net(3, 1, R"(part_size="1" stride="-1" start="-1" end="0")"), "ov_ti_back");
  // parts [3, 6], [2, 5], [1, 4]: h = [3, 6], [5, 11], [6, 15]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{6, 15}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 5, 6, 6, 11, 15}));
}

TEST(OpenVinoTensorIterator, LastValueWithoutBackEdge) {
  // Without the back edge, h is h0 in every iteration: h_next = part.
  std::string xml = test::replaced(
      ti_net(3, 1, kForward),
      R"(<back_edges><edge from-layer="3" from-port="0" to-layer="1" to-port="0"/></back_edges>)",
      "");
  NamedValues out = run(xml, "ov_ti_last");
  // The last iteration's h_next: the third part, [3, 6]; all of them: x itself.
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3, 6}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(OpenVinoTensorIterator, PartsOfTwo) {
  NamedValues out = run(ti_net(4, 2, R"(part_size="2" stride="2")"), "ov_ti_parts", 4, 2);
  // parts [[1, 2], [5, 6]], [[3, 4], [7, 8]]: h = [[1, 2], [5, 6]], [[4, 6], [12, 14]]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 6, 12, 14}));
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 4, 6, 5, 6, 12, 14}));
  // backward: the second h first
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{4, 6, 1, 2, 12, 14, 5, 6}));
}

TEST(OpenVinoTensorIterator, PartsOfTwoBackward) {
  NamedValues out = run(ti_net(4, 2, R"(part_size="2" stride="-2" start="-1" end="0")"),
                        "ov_ti_parts_back", 4, 2);
  // The last part first, each in its own order: [[3, 4], [7, 8]], then [[1, 2], [5, 6]]:
  // h = [[3, 4], [7, 8]], [[4, 6], [12, 14]]
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 6, 12, 14}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 4, 4, 6, 7, 8, 12, 14}));
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{4, 6, 3, 4, 12, 14, 7, 8}));
}

TEST(OpenVinoTensorIterator, PartsThatOverlapAreRefused) {
  // Parts of 2 taken every 1 element overlap: no ONNX Scan takes them.
  Error e = test::ir_load_error("ov_ti_overlap", ti_net(4, 2, R"(part_size="2" stride="1")"));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("body/Parameter \"part\" (id 0)"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace bough
