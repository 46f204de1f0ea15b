// Ports, element types, names, rt_info and Result order as OpenVINO writes them
// (src/core/src/pass/serialize.cpp) and reads them (src/frontends/ir/src/ir_deserializer.cpp,
// src/core/include/openvino/core/type/element_iterator.hpp). Expected values are worked out
// by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <iostream>
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
#include "tools/cli_util.h"

namespace bough {
namespace {

using test::count_of;
using test::f32;
using test::floats_of;

std::vector<std::string> names_of(const NamedValues& v) {
  std::vector<std::string> names;
  for (const auto& [name, value] : v) names.push_back(name);
  return names;
}

std::vector<float> iota_floats(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<float>(i));
  return v;
}

// --- 4. A port without <dim>s is a dynamic rank ----------------------------------------

// x has a dynamic rank (shape "..."), and Abs's output port, as OpenVINO's serializer writes a
// dynamic rank, has no <dim>. StridedSlice `sub` takes x[..., 1:3] (ellipsis_mask 1,0) and
// `grown` x[..., newaxis] (ellipsis_mask 1,0, new_axis_mask 0,1).
// .bin: 0: [0, 1] begin, 16: [0, 3] end, 32: [1, 1] stride, 48: [0, 0] (i64).
const char* kEllipsisAfterDynamicRank = R"(<?xml version="1.0"?>
<net name="ss" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="..."/>
      <output><port id="0" precision="FP32" names="x"/></output>
    </layer>
    <layer id="1" name="abs" type="Abs" version="opset1">
      <input><port id="0" precision="FP32"/></input>
      <output><port id="1" precision="FP32"/></output>
    </layer>
    <layer id="2" name="begin" type="Const" version="opset1">
      <data element_type="i64" shape="2" offset="0" size="16"/>
      <output><port id="0" precision="I64"><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="end" type="Const" version="opset1">
      <data element_type="i64" shape="2" offset="16" size="16"/>
      <output><port id="0" precision="I64"><dim>2</dim></port></output>
    </layer>
    <layer id="4" name="stride" type="Const" version="opset1">
      <data element_type="i64" shape="2" offset="32" size="16"/>
      <output><port id="0" precision="I64"><dim>2</dim></port></output>
    </layer>
    <layer id="5" name="zeros" type="Const" version="opset1">
      <data element_type="i64" shape="2" offset="48" size="16"/>
      <output><port id="0" precision="I64"><dim>2</dim></port></output>
    </layer>
    <layer id="6" name="sub" type="StridedSlice" version="opset1">
      <data begin_mask="0,0" end_mask="0,0" ellipsis_mask="1,0" new_axis_mask="0,0" shrink_axis_mask="0,0"/>
      <input><port id="0" precision="FP32"/><port id="1" precision="I64"><dim>2</dim></port><port id="2" precision="I64"><dim>2</dim></port><port id="3" precision="I64"><dim>2</dim></port></input>
      <output><port id="4" precision="FP32" names="sub"/></output>
    </layer>
    <layer id="7" name="grown" type="StridedSlice" version="opset1">
      <data begin_mask="0,0" end_mask="0,0" ellipsis_mask="1,0" new_axis_mask="0,1" shrink_axis_mask="0,0"/>
      <input><port id="0" precision="FP32"/><port id="1" precision="I64"><dim>2</dim></port><port id="2" precision="I64"><dim>2</dim></port><port id="3" precision="I64"><dim>2</dim></port></input>
      <output><port id="4" precision="FP32" names="grown"/></output>
    </layer>
    <layer id="8" name="sub/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"/></input>
    </layer>
    <layer id="9" name="grown/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"/></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="6" to-port="0"/>
    <edge from-layer="2" from-port="0" to-layer="6" to-port="1"/>
    <edge from-layer="3" from-port="0" to-layer="6" to-port="2"/>
    <edge from-layer="4" from-port="0" to-layer="6" to-port="3"/>
    <edge from-layer="1" from-port="1" to-layer="7" to-port="0"/>
    <edge from-layer="5" from-port="0" to-layer="7" to-port="1"/>
    <edge from-layer="5" from-port="0" to-layer="7" to-port="2"/>
    <edge from-layer="4" from-port="0" to-layer="7" to-port="3"/>
    <edge from-layer="6" from-port="4" to-layer="8" to-port="0"/>
    <edge from-layer="7" from-port="4" to-layer="9" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenPorts, EllipsisAndNewAxisAfterADynamicRankPort) {
  std::string bin = test::bytes_of<int64_t>({0, 1, 0, 3, 1, 1, 0, 0});
  std::string path =
      test::save_ir(test::scratch_dir("ov_ss_dynamic_rank"), "m", kEllipsisAfterDynamicRank, bin);
  // x = 0..23 as [2, 3, 4]: each row of 4 keeps its elements 1 and 2.
  NamedValues out = test::run_ir(path, {{"x", f32({2, 3, 4}, iota_floats(24))}});
  ASSERT_EQ(names_of(out), (std::vector<std::string>{"sub", "grown"}));
  const Tensor& sub = out[0].second.tensor();
  EXPECT_EQ(sub.shape(), (Dims{2, 3, 2}));
  EXPECT_EQ(floats_of(sub), (std::vector<float>{1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22}));
  const Tensor& grown = out[1].second.tensor();
  EXPECT_EQ(grown.shape(), (Dims{2, 3, 4, 1}));
  EXPECT_EQ(floats_of(grown), iota_floats(24));
}

// An If whose output port has no <dim> (its branches give [2] and, as OpenVINO would write a
// dynamic rank, nothing else is said): then returns x, else x + x.
const char* kDynamicRankIf = R"(<?xml version="1.0"?>
<net name="if_rank" version="11">
  <layers>
    <layer id="0" name="c" type="Parameter" version="opset1">
      <data element_type="boolean" shape=""/>
      <output><port id="0" precision="BOOL" names="c"/></output>
    </layer>
    <layer id="1" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="if" type="If" version="opset8">
      <input><port id="0" precision="BOOL"/><port id="1" precision="FP32"><dim>2</dim></port></input>
      <output><port id="2" precision="FP32" names="y"/></output>
      <then_port_map>
        <input external_port_id="1" internal_layer_id="0"/>
        <output external_port_id="2" internal_layer_id="1"/>
      </then_port_map>
      <else_port_map>
        <input external_port_id="1" internal_layer_id="0"/>
        <output external_port_id="2" internal_layer_id="2"/>
      </else_port_map>
      <then_body>
        <layers>
          <layer id="0" name="tx" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="r" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
      </then_body>
      <else_body>
        <layers>
          <layer id="0" name="ex" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="twice" type="Add" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"><dim>2</dim></port></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="2" name="r" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>2</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="1" to-port="1"/>
          <edge from-layer="1" from-port="2" to-layer="2" to-port="0"/>
        </edges>
      </else_body>
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

TEST(OpenVinoAsWrittenPorts, IfWithDynamicRankOutputLoadsChecksAndConverts) {
  std::string path = test::save_ir(test::scratch_dir("ov_if_rank"), "m", kDynamicRankIf);
  Model model = Model::load(path);
  for (const Diagnostic& d : check_model(model))
    EXPECT_FALSE(d.error) << d.place << ": " << d.message;
  // The ONNX it converts to checks too.
  auto ir = openvino::read_model_file(path);
  Model onnx = Model::load_bytes(onnx::write_model_bytes(*ir), "if_rank.onnx");
  for (const Diagnostic& d : check_model(onnx))
    EXPECT_FALSE(d.error) << d.place << ": " << d.message;
  Tensor x = f32({2}, {3, 4});
  NamedValues t = test::run_ir(path, {{"c", Tensor::scalar_bool(true)}, {"x", x}});
  EXPECT_EQ(floats_of(t.at(0).second.tensor()), (std::vector<float>{3, 4}));
  NamedValues e = test::run_ir(path, {{"c", Tensor::scalar_bool(false)}, {"x", x}});
  EXPECT_EQ(floats_of(e.at(0).second.tensor()), (std::vector<float>{6, 8}));
}

// --- 5. u1 and u2 packing ---------------------------------------------------------------

// A u2 Const of 5 values and a u1 Const of 10 values, each converted to f32. OpenVINO puts
// element 0 in the most significant bits: u2 [1, 2, 3, 0, 3] is 01 10 11 00 | 11 00 00 00,
// bytes 0x6C 0xC0; u1 [1,0,1,1,0,0,0,1, 1,0] is 0xB1 0x80.
const char* kSubByte = R"(<?xml version="1.0"?>
<net name="bits" version="11">
  <layers>
    <layer id="0" name="two_bits" type="Const" version="opset1">
      <data element_type="u2" shape="5" offset="0" size="2"/>
      <output><port id="0" precision="U2"><dim>5</dim></port></output>
    </layer>
    <layer id="1" name="one_bit" type="Const" version="opset1">
      <data element_type="u1" shape="10" offset="2" size="2"/>
      <output><port id="0" precision="BIN"><dim>10</dim></port></output>
    </layer>
    <layer id="2" name="u2_f" type="Convert" version="opset1">
      <data destination_type="f32"/>
      <input><port id="0" precision="U2"><dim>5</dim></port></input>
      <output><port id="1" precision="FP32" names="u2_f"><dim>5</dim></port></output>
    </layer>
    <layer id="3" name="u1_f" type="Convert" version="opset1">
      <data destination_type="f32"/>
      <input><port id="0" precision="BIN"><dim>10</dim></port></input>
      <output><port id="1" precision="FP32" names="u1_f"><dim>10</dim></port></output>
    </layer>
    <layer id="4" name="u2_f/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>5</dim></port></input>
    </layer>
    <layer id="5" name="u1_f/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>10</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="2" from-port="1" to-layer="4" to-port="0"/>
    <edge from-layer="3" from-port="1" to-layer="5" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenPorts, U1AndU2PackElementZeroInTheHighBits) {
  std::string bin = "\x6C\xC0\xB1\x80";
  std::string path = test::save_ir(test::scratch_dir("ov_sub_byte"), "m", kSubByte, bin);
  // run_ir also writes the u2 constant back as IR (packed again) and reads it once more.
  NamedValues out = test::run_ir(path, {});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{1, 2, 3, 0, 3}));
  EXPECT_EQ(floats_of(out.at(1).second.tensor()),
            (std::vector<float>{1, 0, 1, 1, 0, 0, 0, 1, 1, 0}));
}

// --- 6 and 9. Result order; what OpenVINO accepts ---------------------------------------

// Results come in file order: "a" before "b", though b's value is made first (a = -|x|,
// b = |x|). The Const `c` says size 16 for its 8 bytes (OpenVINO reads the first 8); the
// Add's output port has the dynamic element type (precision UNSPECIFIED); the layer of the
// unknown type "NoSuchOp" feeds no Result, so OpenVINO never builds it.
const char* kOrderAndLeniency = R"(<?xml version="1.0"?>
<net name="order" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="a/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
    <layer id="2" name="b/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
    <layer id="3" name="b" type="Abs" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="FP32" names="b"><dim>2</dim></port></output>
    </layer>
    <layer id="4" name="a" type="Negative" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="FP32" names="a"><dim>2</dim></port></output>
    </layer>
    <layer id="5" name="c" type="Const" version="opset1">
      <data element_type="f32" shape="2" offset="0" size="16"/>
      <output><port id="0" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="6" name="s" type="Add" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"><dim>2</dim></port></input>
      <output><port id="2" precision="UNSPECIFIED" names="s"><dim>2</dim></port></output>
    </layer>
    <layer id="7" name="s/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
    <layer id="8" name="dead" type="NoSuchOp" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="UNSPECIFIED"/></output>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="3" from-port="1" to-layer="4" to-port="0"/>
    <edge from-layer="4" from-port="1" to-layer="1" to-port="0"/>
    <edge from-layer="3" from-port="1" to-layer="2" to-port="0"/>
    <edge from-layer="0" from-port="0" to-layer="6" to-port="0"/>
    <edge from-layer="5" from-port="0" to-layer="6" to-port="1"/>
    <edge from-layer="6" from-port="2" to-layer="7" to-port="0"/>
    <edge from-layer="0" from-port="0" to-layer="8" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenPorts, ResultOrderOversizedConstDynamicTypeAndDeadLayers) {
  std::string bin = test::bytes_of<float>({10, 20, 99, 99});
  std::string path = test::save_ir(test::scratch_dir("ov_order"), "m", kOrderAndLeniency, bin);
  NamedValues out = test::run_ir(path, {{"x", f32({2}, {-1, 2})}});
  ASSERT_EQ(names_of(out), (std::vector<std::string>{"a", "b", "s"}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{-1, -2}));  // -|x|
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2}));    // |x|
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{9, 22}));   // x + c
}

// --- 12. Output names through a round trip ---------------------------------------------

TEST(OpenVinoAsWrittenPorts, OutputNamesSurviveOnnxToIrToOnnx) {
  // x, y1 = Identity(x), y2 = Identity(y1), c (an initializer), cc = Identity(c).
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.initializer("c", f32({2}, {5, 6}));
  g.node("Identity", {"x"}, {"y1"});
  g.node("Identity", {"y1"}, {"y2"});
  g.node("Identity", {"c"}, {"cc"});
  for (const char* name : {"x", "y1", "y2", "c", "cc"}) g.output(name, ElemType::Float, {2});
  std::string onnx_path =
      test::save_model(test::make_model(g), test::scratch_dir("ov_names"), "m.onnx");
  auto model = onnx::read_model_file(onnx_path);
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the names model as IR");
  std::string ir_path = test::save_ir(test::scratch_dir("ov_names_ir"), "m", files.xml, files.bin);
  const std::vector<std::string> want{"x", "y1", "y2", "c", "cc"};
  NamedValues out = test::run_ir(ir_path, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(names_of(out), want);
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{1, 2}));
  EXPECT_EQ(floats_of(out[4].second.tensor()), (std::vector<float>{5, 6}));
  // And as ONNX again.
  auto back = onnx::read_model_bytes(onnx::write_model_bytes(*openvino::read_model_file(ir_path)),
                                     "back.onnx", "");
  std::vector<std::string> names;
  for (const ir::Edge* e : back->graph->outputs) names.push_back(e->name);
  EXPECT_EQ(names, want);
}

// --- 10. rt_info is kept, and is only data ----------------------------------------------

// The Parameter has rt_info of its own and on its port; so does Abs's output port.
const char* kRtInfo = R"(<?xml version="1.0"?>
<net name="rt" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <rt_info><attribute name="old_api_map_order" version="0" value="0"/></rt_info>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim><rt_info><attribute name="layout" version="0" layout="[N]"/></rt_info></port></output>
    </layer>
    <layer id="1" name="y" type="Abs" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="FP32" names="y"><dim>2</dim><rt_info><attribute name="fused_names" version="0" value="y_fused"/></rt_info></port></output>
    </layer>
    <layer id="2" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";

void expect_rt_info_kept(const std::string& xml, const std::string& trip) {
  EXPECT_EQ(count_of(xml, "old_api_map_order"), 1u) << trip << "\n" << xml;
  EXPECT_EQ(count_of(xml, "layout=\"[N]\""), 1u) << trip;
  EXPECT_EQ(count_of(xml, "y_fused"), 1u) << trip;
  // The Parameter's own rt_info comes before its <output>, the port's inside its <port>.
  EXPECT_LT(xml.find("old_api_map_order"), xml.find("<output>")) << trip;
  EXPECT_LT(xml.find("names=\"x\""), xml.find("layout=\"[N]\"")) << trip;
}

TEST(OpenVinoAsWrittenPorts, RtInfoOfParametersAndPortsIsKept) {
  std::string path = test::save_ir(test::scratch_dir("ov_rt_info"), "m", kRtInfo);
  auto model = openvino::read_model_file(path);
  expect_rt_info_kept(openvino::write_ir(*model).xml, "IR -> IR");
  auto via_onnx = onnx::read_model_bytes(onnx::write_model_bytes(*model), "rt.onnx", "");
  expect_rt_info_kept(openvino::write_ir(*via_onnx).xml, "IR -> ONNX -> IR");
}

TEST(OpenVinoAsWrittenPorts, RtInfoNeverAddsABody) {
  // A node's rt_info metadata that holds a then_body (issue 29): written as data at most, and
  // the If still runs its own then branch (x + z of the spec example, not Abs).
  auto model =
      openvino::read_model_file(test::source_dir() + "/tests/fixtures/openvino/if8_spec.xml");
  ir::Node& node = *model->graph->nodes.at(0);
  ASSERT_EQ(node.op_type, "If");
  const std::string evil =
      "<then_body><layers><layer id=\"0\" name=\"p\" type=\"Parameter\" version=\"opset1\">"
      "<data element_type=\"f32\" shape=\"2,4\"/><output><port id=\"0\" precision=\"FP32\">"
      "<dim>2</dim><dim>4</dim></port></output></layer></layers></then_body>";
  node.metadata.emplace_back(openvino::kRtInfoKey, evil);
  openvino::IrFiles files = openvino::write_ir(*model);
  EXPECT_EQ(count_of(files.xml, "<then_body>"), 1u) << files.xml;
  auto back = openvino::read_model_text(files.xml, &files.bin, "evil.xml");
  Tensor x = f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor z = f32({2, 4}, std::vector<float>(8, 10));
  Tensor w = f32({2, 4}, std::vector<float>(8, 100));
  NamedValues out = Session(Model(std::shared_ptr<ir::Model>(std::move(back))))
                        .run({{"cond", Tensor::scalar_bool(true)}, {"x", x}, {"z", z}, {"w", w}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()),
            (std::vector<float>{11, 12, 13, 14, 15, 16, 17, 18}));
  // A file with the body twice is refused, not read with the later one.
  std::string twice = files.xml;
  size_t at = twice.find("<then_body>");
  size_t end = twice.find("</then_body>") + std::string("</then_body>").size();
  twice.insert(end, twice.substr(at, end - at));
  EXPECT_THROW(openvino::read_model_text(twice, &files.bin, "twice.xml"), Error);
}

// --- Issue 29: linear time, no runaway memory ------------------------------------------

// n layers, all named "x", in reverse file order (each reads the next one in the file):
// picking layers in order, making names unique and finding ports must all be linear.
std::string long_chain(int n) {
  std::string layers, edges;
  // Layer 0 is the Result; layer k (1..n-1) is Abs reading layer k+1; layer n the Parameter.
  layers += R"(<layer id="0" name="x" type="Result" version="opset1"><input><port id="0"/>)"
            "</input></layer>\n";
  for (int k = 1; k < n; ++k) {
    layers += "<layer id=\"" + std::to_string(k) +
              R"(" name="x" type="Abs" version="opset1"><input><port id="0"/></input>)"
              R"(<output><port id="1" precision="FP32"/></output></layer>)"
              "\n";
    edges += "<edge from-layer=\"" + std::to_string(k + 1) + "\" from-port=\"" +
             (k + 1 == n ? "0" : "1") + "\" to-layer=\"" + std::to_string(k) +
             "\" to-port=\"0\"/>\n";
  }
  layers += "<layer id=\"" + std::to_string(n) +
            R"(" name="x" type="Parameter" version="opset1"><data element_type="f32" )"
            R"(shape="1"/><output><port id="0" precision="FP32"><dim>1</dim></port></output>)"
            "</layer>\n";
  edges += "<edge from-layer=\"1\" from-port=\"1\" to-layer=\"0\" to-port=\"0\"/>\n";
  return "<?xml version=\"1.0\"?>\n<net name=\"long\" version=\"11\"><layers>\n" + layers +
         "</layers><edges>\n" + edges + "</edges></net>\n";
}

// CPU seconds the reader takes for long_chain(n) (of this thread: the machine is shared, so
// wall time says little).
double read_seconds(int n) {
  std::string xml = long_chain(n);
  auto cpu_seconds = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  double start = cpu_seconds();
  auto model = openvino::read_model_text(xml, nullptr, "long.xml");
  double seconds = cpu_seconds() - start;
  EXPECT_EQ(model->graph->nodes.size(), static_cast<size_t>(n - 1));
  return seconds;
}

// The fastest of three reads: one read can be slowed by the other core's work on shared
// caches and memory even in CPU time.
double fastest_read_seconds(int n) {
  return std::min({read_seconds(n), read_seconds(n), read_seconds(n)});
}

// Linear time in the number of layers, checked by growth rather than by a clock bound (the
// same test runs under ASan, several times slower): ten times the layers take about ten
// times the CPU time, where the quadratic reader this replaced took a hundred times.
TEST(OpenVinoAsWrittenPorts, ReadingTimeGrowsLinearlyWithTheLayers) {
  const double small = fastest_read_seconds(10000), large = fastest_read_seconds(100000);
  std::cout << "10^4 layers read in " << small << " s, 10^5 in " << large << " s of CPU time\n";
  EXPECT_LT(large, 50 * small + 0.05);
}

// A Loop's concatenated output on axis 100000000 of a Result without <dim>s: refused at
// once, without building a permutation of that length.
TEST(OpenVinoAsWrittenPorts, HugePortMapAxisIsRefusedWithoutAllocating) {
  std::string xml = R"(<?xml version="1.0"?>
<net name="axis" version="11">
  <layers>
    <layer id="0" name="trip" type="Const" version="opset1">
      <data element_type="i64" shape="" offset="0" size="8"/>
      <output><port id="0" precision="I64"/></output>
    </layer>
    <layer id="1" name="go" type="Const" version="opset1">
      <data element_type="boolean" shape="" offset="8" size="1"/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="2" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="loop" type="Loop" version="opset5">
      <input><port id="0"/><port id="1"/><port id="2"><dim>2</dim></port></input>
      <output><port id="3" precision="FP32"/></output>
      <port_map>
        <input external_port_id="2" internal_layer_id="0"/>
        <output external_port_id="-1" internal_layer_id="2" purpose="execution_condition"/>
        <output external_port_id="3" internal_layer_id="3" axis="100000000"/>
      </port_map>
      <body>
        <layers>
          <layer id="0" name="p" type="Parameter" version="opset1">
            <data element_type="f32" shape="..."/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="1" name="t" type="Const" version="opset1">
            <data element_type="boolean" shape="" offset="8" size="1"/>
            <output><port id="0" precision="BOOL"/></output>
          </layer>
          <layer id="2" name="c" type="Result" version="opset1"><input><port id="0"/></input></layer>
          <layer id="3" name="r" type="Result" version="opset1"><input><port id="0"/></input></layer>
        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="4" name="y" type="Result" version="opset1"><input><port id="0"/></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
    <edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
    <edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
  </edges>
</net>
)";
  std::string bin = test::bytes_of<int64_t>({2}) + std::string(1, '\1');
  Error e = test::ir_load_error("ov_huge_axis", xml, bin);
  EXPECT_NE(std::string(e.what()).find("axis"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace bough
