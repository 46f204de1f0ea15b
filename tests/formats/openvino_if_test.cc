// OpenVINO If-8: bodies bound to the node's inputs by port maps, read into closed
// subgraphs with captures. Each model runs as read and after IR -> ONNX (run_ir), and the
// two runs must agree. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

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

// The If-8 specification's example (then_body adds inputs 1 and 2, else_body adds inputs 1
// and 3, so each body binds a different subset of the If's inputs).
std::string spec_if_path() { return test::source_dir() + "/tests/fixtures/openvino/if8_spec.xml"; }

TEST(OpenVinoIf, SpecExampleBodiesBindDifferentInputs) {
  std::string path = spec_if_path();
  // x = 1..8, z = 10 everywhere, w = 100 everywhere.
  Tensor x = f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor z = f32({2, 4}, std::vector<float>(8, 10));
  Tensor w = f32({2, 4}, std::vector<float>(8, 100));
  auto run = [&](bool c) {
    return test::run_ir(path, {{"cond", Tensor::scalar_bool(c)}, {"x", x}, {"z", z}, {"w", w}});
  };
  // then: x + z = 11..18
  NamedValues t = run(true);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].first, "if/cond/Identity:0");
  EXPECT_EQ(floats_of(t[0].second.tensor()), (std::vector<float>{11, 12, 13, 14, 15, 16, 17, 18}));
  // else: x + w = 101..108
  NamedValues e = run(false);
  EXPECT_EQ(floats_of(e[0].second.tensor()),
            (std::vector<float>{101, 102, 103, 104, 105, 106, 107, 108}));
}

TEST(OpenVinoIf, PortMapsBecomeCapturesAndOnnxHasOneInput) {
  std::string path = spec_if_path();
  auto model = openvino::read_model_file(path);
  const ir::Node& node = *model->graph->nodes.at(0);
  ASSERT_EQ(node.op_type, "If");
  // The If keeps only cond; x, z and w arrive as implicit inputs (x once, though both
  // bodies read it).
  ASSERT_EQ(node.inputs.size(), 1u);
  EXPECT_EQ(node.inputs[0]->name, "cond");
  std::vector<std::string> implicit;
  for (const ir::Edge* e : node.implicit_inputs) implicit.push_back(e->name);
  EXPECT_EQ(implicit, (std::vector<std::string>{"x", "z", "w"}));
  const ir::Graph& then_branch = *node.attr("then_branch")->g;
  EXPECT_TRUE(then_branch.inputs.empty());
  ASSERT_EQ(then_branch.captures.size(), 2u);
  EXPECT_EQ(then_branch.captures[0]->outer->name, "x");
  EXPECT_EQ(then_branch.captures[1]->outer->name, "z");
  // Written as ONNX, the If has the spec form: one input, branches without inputs.
  std::string bytes = onnx::write_model_bytes(*model);
  onnxpb::ModelProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  const auto& if_node = proto.graph().node(0);
  EXPECT_EQ(if_node.input_size(), 1);
  EXPECT_EQ(if_node.attribute(0).g().input_size(), 0);
}

// then_body has no Parameter: it returns a Const [1, 2] (8 bytes of f32 in the .bin).
// else_body's Result is bound straight to its Parameter, so it returns x unchanged.
const char* kConstAndPassThrough = R"(<?xml version="1.0"?>
<net name="if_const" version="10">
  <layers>
    <layer id="0" name="c" type="Parameter" version="opset1">
      <data element_type="boolean" shape=""/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="1" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="if" type="If" version="opset8">
      <input><port id="0"/><port id="1"><dim>2</dim></port></input>
      <output><port id="2" precision="FP32"><dim>2</dim></port></output>
      <then_port_map><output external_port_id="0" internal_layer_id="1"/></then_port_map>
      <else_port_map>
        <input external_port_id="1" internal_layer_id="7"/>
        <output external_port_id="0" internal_layer_id="8"/>
      </else_port_map>
      <then_body>
        <layers>
          <layer id="0" name="k" type="Const" version="opset1">
            <data element_type="f32" shape="2" offset="0" size="8"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="r" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
      </then_body>
      <else_body>
        <layers>
          <layer id="8" name="r" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim></port></input>
          </layer>
          <layer id="7" name="p" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
        </layers>
        <edges><edge from-layer="7" from-port="0" to-layer="8" to-port="0"/></edges>
      </else_body>
    </layer>
    <layer id="3" name="y" type="Result" version="opset1">
      <input><port id="0"><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoIf, BodyWithoutParametersAndResultBoundToParameter) {
  std::string path = test::save_ir(test::scratch_dir("ov_if_const"), "m", kConstAndPassThrough,
                                   test::bytes_of<float>({1.5f, -2.0f}));
  Tensor x = f32({2}, {7, 8});
  // then: the constant [1.5, -2]
  NamedValues t = test::run_ir(path, {{"c", Tensor::scalar_bool(true)}, {"x", x}});
  EXPECT_EQ(floats_of(t[0].second.tensor()), (std::vector<float>{1.5f, -2.0f}));
  // else: x itself, [7, 8]
  NamedValues e = test::run_ir(path, {{"c", Tensor::scalar_bool(false)}, {"x", x}});
  EXPECT_EQ(floats_of(e[0].second.tensor()), (std::vector<float>{7, 8}));
}

}  // namespace
}  // namespace bough
