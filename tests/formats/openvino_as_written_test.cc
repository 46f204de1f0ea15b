// IR as OpenVINO itself writes it (issue 27): port ids that are ids and not indices, ports
// without <dim>s, u1/u2 packing, Result order, names and rt_info, Loop and TensorIterator
// forms its reader accepts. Each fixture follows OpenVINO's serializer
// (src/core/src/pass/serialize.cpp) or one of its own IR reader tests, and each expected
// value is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "bough/model_tools.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino/xml_net.h"
#include "formats/openvino_test_util.h"
#include "ir/graph.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

std::vector<std::string> names_of(const NamedValues& v) {
  std::vector<std::string> names;
  for (const auto& [name, value] : v) names.push_back(name);
  return names;
}

// --- 1. Port ids are ids -----------------------------------------------------------------

// Ifs nested in each other's then_body to `depth`, laid out as OpenVINO's own IR reader test
// lays them out (src/frontends/ir/tests/if_deserialization.cpp, generate_nested_if_xml):
// layer ids from one counter across all bodies, each level a Const(true) condition with no
// <dim> (a scalar) and an If whose input ports are 0 (cond) and 1 (data) and whose output
// port is 2; both port maps bind output external_port_id 2, as OpenVINO's serializer
// numbers an If's outputs after its inputs. Each else_body passes its Parameter through;
// the innermost then_body too. The .bin is one byte, 1, that every condition reads.
struct Level {
  std::string layers, edges;
  int out_layer, out_port;
};

Level nested_if_level(int depth, int input_id, int& next_id) {
  if (depth == 0) return {"", "", input_id, 0};
  auto id = [&] { return std::to_string(next_id++); };
  std::string cond = id(), node = id(), then_p = id(), then_r = id(), else_p = id(), else_r = id();
  Level inner = nested_if_level(depth - 1, std::stoi(then_p), next_id);
  auto param = [](const std::string& i, const std::string& name) {
    return "<layer id=\"" + i + "\" name=\"" + name + i +
           "\" type=\"Parameter\" version=\"opset1\"><data element_type=\"f32\" shape=\"1\"/>"
           "<output><port id=\"0\" precision=\"FP32\"><dim>1</dim></port></output></layer>\n";
  };
  auto result = [](const std::string& i, const std::string& name) {
    return "<layer id=\"" + i + "\" name=\"" + name + i +
           "\" type=\"Result\" version=\"opset1\"><input><port id=\"0\"><dim>1</dim></port>"
           "</input></layer>\n";
  };
  auto edge = [](const std::string& from, int port, const std::string& to, int to_port) {
    return "<edge from-layer=\"" + from + "\" from-port=\"" + std::to_string(port) +
           "\" to-layer=\"" + to + "\" to-port=\"" + std::to_string(to_port) + "\"/>\n";
  };
  std::string layers =
      "<layer id=\"" + cond + "\" name=\"cond_" + cond +
      "\" type=\"Const\" version=\"opset1\"><data element_type=\"boolean\" shape=\"\" "
      "offset=\"0\" size=\"1\"/><output><port id=\"0\" precision=\"BOOL\"/></output></layer>\n"
      "<layer id=\"" +
      node + "\" name=\"if_" + node +
      "\" type=\"If\" version=\"opset8\"><input><port id=\"0\"></port><port id=\"1\"><dim>1</dim>"
      "</port></input><output><port id=\"2\" precision=\"FP32\"><dim>1</dim></port></output>"
      "<then_port_map><input external_port_id=\"1\" internal_layer_id=\"" +
      then_p + "\"/><output external_port_id=\"2\" internal_layer_id=\"" + then_r +
      "\"/></then_port_map><else_port_map><input external_port_id=\"1\" internal_layer_id=\"" +
      else_p + "\"/><output external_port_id=\"2\" internal_layer_id=\"" + else_r +
      "\"/></else_port_map><then_body><layers>\n" + param(then_p, "then_param_") + inner.layers +
      result(then_r, "then_result_") + "</layers><edges>\n" + inner.edges +
      edge(std::to_string(inner.out_layer), inner.out_port, then_r, 0) +
      "</edges></then_body><else_body><layers>\n" + param(else_p, "else_param_") +
      result(else_r, "else_result_") + "</layers><edges>\n" + edge(else_p, 0, else_r, 0) +
      "</edges></else_body></layer>\n";
  std::string edges = edge(cond, 0, node, 0) + edge(std::to_string(input_id), 0, node, 1);
  return {layers, edges, std::stoi(node), 2};
}

std::string nested_if_xml(int depth) {
  int next_id = 0;
  int input = next_id++;
  Level top = nested_if_level(depth, input, next_id);
  std::string out = std::to_string(next_id++);
  return "<?xml version=\"1.0\" ?>\n<net name=\"NestedIf\" version=\"11\"><layers>\n"
         "<layer id=\"" +
         std::to_string(input) +
         "\" name=\"input\" type=\"Parameter\" version=\"opset1\"><data element_type=\"f32\" "
         "shape=\"1\"/><output><port id=\"0\" precision=\"FP32\"><dim>1</dim></port></output>"
         "</layer>\n" +
         top.layers + "<layer id=\"" + out +
         "\" name=\"output\" type=\"Result\" version=\"opset1\"><input><port id=\"0\"><dim>1</dim>"
         "</port></input></layer>\n</layers><edges>\n" +
         top.edges + "<edge from-layer=\"" + std::to_string(top.out_layer) + "\" from-port=\"" +
         std::to_string(top.out_port) + "\" to-layer=\"" + out +
         "\" to-port=\"0\"/>\n</edges></net>\n";
}

TEST(OpenVinoAsWritten, NestedIfFromOpenVinosReaderTestLoadsAndRuns) {
  // 64 is the deepest OpenVINO's reader loads (its test nested_if_at_max_depth_loads).
  for (int depth : {1, 3, 64}) {
    std::string path = test::save_ir(test::scratch_dir("ov_nested_if_" + std::to_string(depth)),
                                     "m", nested_if_xml(depth), std::string(1, '\1'));
    // Every condition is true and the innermost then_body passes its input through: 7.5.
    NamedValues out = test::run_ir(path, {{"input", f32({1}, {7.5f})}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(floats_of(out[0].second.tensor()), std::vector<float>{7.5f}) << depth;
  }
}

// An If with inputs cond (port 0) and x (port 1) and two outputs, ports 2 and 3. then_port_map
// numbers them as OpenVINO's serializer does (2, 3), listed in reverse; else_port_map as the
// If-8 spec's example does (0, 1). Each map is ranked on its own: then gives
// (x + 1, x * 2), else (x - 1, x * 3).
// .bin: 0: 1.0, 4: 2.0, 8: 3.0 (f32).
const char* kTwoOutputIf = R"(<?xml version="1.0"?>
<net name="if2" version="11">
  <layers>
    <layer id="0" name="c" type="Parameter" version="opset1">
      <data element_type="boolean" shape=""/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="1" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="if" type="If" version="opset8">
      <input><port id="0" precision="BOOL"/><port id="1" precision="FP32"><dim>2</dim></port></input>
      <output>
        <port id="2" precision="FP32" names="first"><dim>2</dim></port>
        <port id="3" precision="FP32" names="second"><dim>2</dim></port>
      </output>
      <then_port_map>
        <input external_port_id="1" internal_layer_id="0"/>
        <output external_port_id="3" internal_layer_id="6"/>
        <output external_port_id="2" internal_layer_id="5"/>
      </then_port_map>
      <else_port_map>
        <input external_port_id="1" internal_layer_id="0"/>
        <output external_port_id="0" internal_layer_id="5"/>
        <output external_port_id="1" internal_layer_id="6"/>
      </else_port_map>
      <then_body>
        <layers>
          <layer id="0" name="tx" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="one" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="0" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="2" name="two" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="4" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="3" name="plus" type="Add" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="4" name="times" type="Multiply" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="5" name="r0" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
          <layer id="6" name="r1" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
          <edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
          <edge from-layer="2" from-port="0" to-layer="4" to-port="1"/>
          <edge from-layer="3" from-port="2" to-layer="5" to-port="0"/>
          <edge from-layer="4" from-port="2" to-layer="6" to-port="0"/>
        </edges>
      </then_body>
      <else_body>
        <layers>
          <layer id="0" name="ex" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="one" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="0" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="2" name="three" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="8" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="3" name="minus" type="Subtract" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="4" name="times" type="Multiply" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="5" name="r0" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
          <layer id="6" name="r1" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
          <edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
          <edge from-layer="2" from-port="0" to-layer="4" to-port="1"/>
          <edge from-layer="3" from-port="2" to-layer="5" to-port="0"/>
          <edge from-layer="4" from-port="2" to-layer="6" to-port="0"/>
        </edges>
      </else_body>
    </layer>
    <layer id="3" name="first/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
    <layer id="4" name="second/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="3" to-layer="4" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWritten, IfOutputIdsAreRankedPerPortMap) {
  std::string path = test::save_ir(test::scratch_dir("ov_if_ranked"), "m", kTwoOutputIf,
                                   test::bytes_of<float>({1, 2, 3}));
  Tensor x = f32({2}, {10, 20});
  NamedValues t = test::run_ir(path, {{"c", Tensor::scalar_bool(true)}, {"x", x}});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(names_of(t), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(floats_of(t[0].second.tensor()), (std::vector<float>{11, 21}));  // x + 1
  EXPECT_EQ(floats_of(t[1].second.tensor()), (std::vector<float>{20, 40}));  // x * 2
  NamedValues e = test::run_ir(path, {{"c", Tensor::scalar_bool(false)}, {"x", x}});
  EXPECT_EQ(floats_of(e[0].second.tensor()), (std::vector<float>{9, 19}));   // x - 1
  EXPECT_EQ(floats_of(e[1].second.tensor()), (std::vector<float>{30, 60}));  // x * 3
}

// --- 4. MatMul's transposes on an operand of dynamic rank --------------------------------

// a has a dynamic rank (shape "...", a port without dims), transpose_a is set: y = a^T b.
const char* kMatMulDynamicRank = R"(<?xml version="1.0"?>
<net name="mm" version="11">
  <layers>
    <layer id="0" name="a" type="Parameter" version="opset1">
      <data element_type="f32" shape="..."/>
      <output><port id="0" precision="FP32" names="a"/></output>
    </layer>
    <layer id="1" name="b" type="Parameter" version="opset1">
      <data element_type="f32" shape="3,2"/>
      <output><port id="0" precision="FP32" names="b"><dim>3</dim><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="y" type="MatMul" version="opset1">
      <data transpose_a="true" transpose_b="false"/>
      <input><port id="0" precision="FP32"/><port id="1" precision="FP32"><dim>3</dim><dim>2</dim></port></input>
      <output><port id="2" precision="FP32" names="y"/></output>
    </layer>
    <layer id="3" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"/></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWritten, MatMulTransposeOfADynamicRankOperand) {
  std::string path = test::save_ir(test::scratch_dir("ov_mm_rank"), "m", kMatMulDynamicRank);
  // a = [[1, 2], [3, 4], [5, 6]], b = [[1, 0], [0, 1], [1, 1]]:
  // a^T b = [[1 + 5, 3 + 5], [2 + 6, 4 + 6]] = [[6, 8], [8, 10]].
  NamedValues out = test::run_ir(
      path, {{"a", f32({3, 2}, {1, 2, 3, 4, 5, 6})}, {"b", f32({3, 2}, {1, 0, 0, 1, 1, 1})}});
  EXPECT_EQ(out.at(0).second.tensor().shape(), (Dims{2, 2}));
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{6, 8, 8, 10}));
}

// --- 11. Legacy broadcasting through IR ----------------------------------------------------

TEST(OpenVinoAsWritten, LegacyBroadcastAxisSurvivesOnnxToIrToOnnx) {
  // Opset 6: y = Add(a [2, 3, 4], b [3], broadcast=1, axis=1): y[i][j][k] = a[i][j][k] + b[j].
  test::GraphBuilder g;
  g.input("a", ElemType::Float, {2, 3, 4}).input("b", ElemType::Float, {3});
  onnxpb::NodeProto& add = g.node("Add", {"a", "b"}, {"y"});
  test::set_int(add, "broadcast", 1);
  test::set_int(add, "axis", 1);
  g.output("y", ElemType::Float, {2, 3, 4});
  std::string onnx_path =
      test::save_model(test::make_model(g, 6, 3), test::scratch_dir("ov_legacy"), "m.onnx");
  openvino::IrFiles files = openvino::write_ir(*onnx::read_model_file(onnx_path));
  test::expect_ov_reader_accepts(files.xml, "the legacy Add as IR");
  std::string path = test::save_ir(test::scratch_dir("ov_legacy_ir"), "m", files.xml, files.bin);
  std::vector<float> a(24, 0);
  NamedValues out = test::run_ir(path, {{"a", f32({2, 3, 4}, a)}, {"b", f32({3}, {1, 2, 3})}});
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (float bj : {1.f, 2.f, 3.f})
      for (int k = 0; k < 4; ++k) want.push_back(bj);
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), want);
}

}  // namespace
}  // namespace bough
