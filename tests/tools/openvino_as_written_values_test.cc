// Values as OpenVINO writes and reads them: rt_info of input ports, Consts and Results; u1
// Consts and Parameters written back as u1; string Consts in OpenVINO's packed layout; u4
// arithmetic; partial shapes and port dims. Sources: src/core/src/pass/serialize.cpp,
// src/frontends/ir/src/ir_deserializer.cpp, src/core/src/runtime/string_aligned_buffer.cpp,
// src/core/src/partial_shape.cpp and dimension.cpp. Expected values are worked out by hand in
// the comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// The IR -> IR and IR -> ONNX -> IR writings of the IR at `path`.
std::vector<std::pair<std::string, openvino::IrFiles>> rewritten(const std::string& path) {
  auto model = openvino::read_model_file(path);
  openvino::IrFiles direct = openvino::write_ir(*model);
  auto via_onnx = onnx::read_model_bytes(onnx::write_model_bytes(*model), "m.onnx", "");
  return {{"IR -> IR", direct}, {"IR -> ONNX -> IR", openvino::write_ir(*via_onnx)}};
}

// --- rt_info of input ports, Consts and Results -----------------------------------------

// Every place OpenVINO's serializer writes an <rt_info> (append_runtime_info: a layer, each
// input port, each output port) on a Const, a layer's input ports and a Result. y = x + c.
const char* kRtInfoEverywhere = R"(<?xml version="1.0"?>
<net name="rt" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="c" type="Const" version="opset1">
      <data element_type="f32" shape="2" offset="0" size="8"/>
      <rt_info><attribute name="fused_names" version="0" value="const_layer"/></rt_info>
      <output><port id="0" precision="FP32" names="c"><dim>2</dim><rt_info><attribute name="fused_names" version="0" value="const_port"/></rt_info></port></output>
    </layer>
    <layer id="2" name="y" type="Add" version="opset1">
      <input>
        <port id="0" precision="FP32"><dim>2</dim><rt_info><attribute name="fused_names" version="0" value="add_in0"/></rt_info></port>
        <port id="1" precision="FP32"><dim>2</dim><rt_info><attribute name="fused_names" version="0" value="add_in1"/></rt_info></port>
      </input>
      <output><port id="2" precision="FP32" names="y"><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="y/sink_port_0" type="Result" version="opset1">
      <rt_info><attribute name="fused_names" version="0" value="result_layer"/></rt_info>
      <input><port id="0" precision="FP32"><dim>2</dim><rt_info><attribute name="fused_names" version="0" value="result_in"/></rt_info></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenValues, RtInfoOfInputPortsConstsAndResultsIsKept) {
  std::string path = test::save_ir(test::scratch_dir("ov_rt_info_inputs"), "m", kRtInfoEverywhere,
                                   test::bytes_of<float>({1, 2}));
  for (const auto& [trip, files] : rewritten(path)) {
    const std::string& xml = files.xml;
    for (const char* v :
         {"const_layer", "const_port", "add_in0", "add_in1", "result_layer", "result_in"})
      EXPECT_EQ(count_of(xml, std::string("value=\"") + v + "\""), 1u) << trip << ": " << v << "\n"
                                                                       << xml;
    // Each where the serializer puts it: the Const's own before its <output>, its port's inside
    // the port; Add's in its input ports, in order; the Result's before its <input>.
    const size_t konst = xml.find("type=\"Const\""), add = xml.find("type=\"Add\"");
    const size_t result = xml.find("type=\"Result\"");
    EXPECT_LT(konst, xml.find("const_layer")) << trip;
    EXPECT_LT(xml.find("const_layer"), xml.find("<output>", konst)) << trip;
    EXPECT_LT(xml.find("<output>", konst), xml.find("const_port")) << trip;
    EXPECT_LT(xml.find("<input>", add), xml.find("add_in0")) << trip;
    EXPECT_LT(xml.find("add_in0"), xml.find("add_in1")) << trip;
    EXPECT_LT(xml.find("add_in1"), xml.find("<output>", add)) << trip;
    EXPECT_LT(result, xml.find("result_layer")) << trip;
    EXPECT_LT(xml.find("result_layer"), xml.find("<input>", result)) << trip;
    EXPECT_LT(xml.find("<input>", result), xml.find("result_in")) << trip;
    test::expect_ov_reader_accepts(xml, trip);
  }
  NamedValues out = test::run_ir(path, {{"x", f32({2}, {10, 20})}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{11, 22}));
}

// --- u1 written back as u1 --------------------------------------------------------------

// y = c + p, both u1 of 10 values (as add_abc_initializers_u1_const.xml in OpenVINO's test
// models). OpenVINO packs element 0 in the most significant bit: c = [1,0,1,1,0,0,0,1, 1,0]
// is 0xB1 0x80.
const char* kU1 = R"(<?xml version="1.0"?>
<net name="u1" version="11">
  <layers>
    <layer id="0" name="c" type="Const" version="opset1">
      <data element_type="u1" shape="10" offset="0" size="2"/>
      <output><port id="0" precision="BIN"><dim>10</dim></port></output>
    </layer>
    <layer id="1" name="p" type="Parameter" version="opset1">
      <data element_type="u1" shape="10"/>
      <output><port id="0" precision="BIN" names="p"><dim>10</dim></port></output>
    </layer>
    <layer id="2" name="y" type="Add" version="opset1">
      <input><port id="0"><dim>10</dim></port><port id="1"><dim>10</dim></port></input>
      <output><port id="2" precision="BIN" names="y"><dim>10</dim></port></output>
    </layer>
    <layer id="3" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0"><dim>10</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenValues, U1ConstAndParameterAreWrittenBackAsU1) {
  std::string path = test::save_ir(test::scratch_dir("ov_u1_back"), "m", kU1, "\xB1\x80");
  for (const auto& [trip, files] : rewritten(path)) {
    // Two u1 layers (the Const and the Parameter) and no u8 one; the Const is 2 bytes, packed
    // as OpenVINO packs it.
    EXPECT_EQ(count_of(files.xml, "element_type=\"u1\""), 2u) << trip << "\n" << files.xml;
    EXPECT_EQ(count_of(files.xml, "element_type=\"u8\""), 0u) << trip;
    EXPECT_NE(files.xml.find("size=\"2\""), std::string::npos) << trip;
    EXPECT_EQ(files.bin, std::string("\xB1\x80")) << trip;
    EXPECT_GE(count_of(files.xml, "precision=\"BIN\""), 2u) << trip;
  }
  // p = [0,1,0,1,0,1,0,1,0,1]: c + p = [1,1,1,2,0,1,0,2,1,1] (OpenVINO's test only reads it;
  // bough holds u1 values as uint8 and adds them so).
  Tensor p(ElemType::UInt8, Dims{10});
  for (int i = 0; i < 10; ++i) static_cast<uint8_t*>(p.raw())[i] = static_cast<uint8_t>(i % 2);
  NamedValues out = test::run_ir(path, {{"p", p}});
  const Tensor& y = out.at(0).second.tensor();
  ASSERT_EQ(y.type(), ElemType::UInt8);
  const auto* v = static_cast<const uint8_t*>(y.raw());
  EXPECT_EQ(std::vector<int>(v, v + 10), (std::vector<int>{1, 1, 1, 2, 0, 1, 0, 2, 1, 1}));
}

// --- string Consts ----------------------------------------------------------------------

// A string Const [3] -> Result, as const_string.xml in OpenVINO's test models. The .bin holds
// OpenVINO's packed layout (string_aligned_buffer.cpp): int32 count 3, offsets 0, 2, 2, 5
// (where each string ends), then "ab" "" "cde": 20 + 5 = 25 bytes.
const char* kStrings = R"(<?xml version="1.0"?>
<net name="strings" version="11">
  <layers>
    <layer id="0" name="s" type="Const" version="opset1">
      <data element_type="string" shape="3" offset="0" size="25"/>
      <output><port id="0" precision="STRING" names="s"><dim>3</dim></port></output>
    </layer>
    <layer id="1" name="s/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="STRING"><dim>3</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
  </edges>
</net>
)";

std::string packed_abc() { return test::bytes_of<int32_t>({3, 0, 2, 2, 5}) + "abcde"; }

TEST(OpenVinoAsWrittenValues, StringConstIsReadAndWrittenInOpenVinosPackedLayout) {
  std::string path =
      test::save_ir(test::scratch_dir("ov_string_const"), "m", kStrings, packed_abc());
  NamedValues out = Session(Model::load(path)).run({});
  const Tensor& s = out.at(0).second.tensor();
  ASSERT_EQ(s.type(), ElemType::String);
  EXPECT_EQ(std::vector<std::string>(s.strings(), s.strings() + 3),
            (std::vector<std::string>{"ab", "", "cde"}));
  for (const auto& [trip, files] : rewritten(path)) {
    EXPECT_EQ(files.bin, packed_abc()) << trip;
    EXPECT_NE(files.xml.find("element_type=\"string\""), std::string::npos) << trip;
    EXPECT_NE(files.xml.find("size=\"25\""), std::string::npos) << trip << "\n" << files.xml;
    auto back = openvino::read_model_text(files.xml, &files.bin, "back.xml");
    NamedValues again = Session(Model(std::shared_ptr<ir::Model>(std::move(back)))).run({});
    const Tensor& t = again.at(0).second.tensor();
    EXPECT_EQ(std::vector<std::string>(t.strings(), t.strings() + 3),
              (std::vector<std::string>{"ab", "", "cde"}))
        << trip;
  }
}

TEST(OpenVinoAsWrittenValues, MalformedPackedStringsAreRefused) {
  // Each is what OpenVINO's aux_unpack_string_tensor refuses (or a count the shape disagrees
  // with), in a file whose `size` covers the bytes given.
  struct Case {
    std::string bin, message;
  };
  const std::vector<Case> cases{
      {test::bytes_of<int32_t>({2, 0, 2, 5}) + "abcde", "holds 2 strings, but the shape holds 3"},
      {test::bytes_of<int32_t>({3, 0, 2, 2, 9}) + "abcde", "the bytes 2..9 of 5"},
      {test::bytes_of<int32_t>({3, 0, 4, 2, 5}) + "abcde", "the bytes 4..2 of 5"},
      {test::bytes_of<int32_t>({3, -1, 2, 2, 5}) + "abcde", "the bytes -1..2 of 5"},
  };
  for (const Case& c : cases) {
    std::string xml =
        test::replaced(kStrings, "size=\"25\"", "size=\"" + std::to_string(c.bin.size()) + "\"");
    Error e = test::ir_load_error("ov_string_bad", xml, c.bin);
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
  }
  // A header longer than `size` (3 strings need 20 bytes of header).
  Error e = test::ir_load_error(
      "ov_string_short", test::replaced(kStrings, "size=\"25\"", "size=\"12\""), packed_abc());
  EXPECT_NE(std::string(e.what()).find("less than the 20 bytes"), std::string::npos) << e.what();
}

// --- u4 arithmetic ----------------------------------------------------------------------

// fe_lp_weights_u4.xml of OpenVINO's reader tests (model_with_lp_weights_reading_from_disk):
// A (u4 scalar) + a u4 Const from byte 0x18, whose low nibble, element 0, is 8.
const char* kU4Add = R"(<?xml version="1.0"?>
<net name="Model" version="11">
  <layers>
    <layer id="0" name="A" type="Parameter" version="opset1">
      <data shape="" element_type="u4"/>
      <output><port id="0" precision="U4" names="A"/></output>
    </layer>
    <layer id="1" name="my_const" type="Const" version="opset1">
      <data element_type="u4" shape="" offset="0" size="1"/>
      <output><port id="0" precision="U4"/></output>
    </layer>
    <layer id="2" name="Add_4" type="Add" version="opset1">
      <data auto_broadcast="numpy"/>
      <input><port id="0" precision="U4"/><port id="1" precision="U4"/></input>
      <output><port id="2" precision="U4"/></output>
    </layer>
    <layer id="3" name="Result_5" type="Result" version="opset1">
      <input><port id="0" precision="U4"/></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenValues, U4AddRunsAsOpenVinosCpuPluginRunsIt) {
  std::string path = test::save_ir(test::scratch_dir("ov_u4_add"), "m", kU4Add, "\x18");
  Model model = Model::load(path);
  for (const Diagnostic& d : check_model(model))
    EXPECT_FALSE(d.error) << d.place << ": " << d.message;
  // 7 + 8 = 15 and 3 + 8 = 11, in the uint4 the file declares (and the same through ONNX and
  // back, which run_ir checks).
  for (auto [a, sum] : {std::pair{7, 15}, std::pair{3, 11}}) {
    NamedValues out = test::run_ir(path, {{"A", test::packed(ElemType::UInt4, {}, {a})}});
    const Tensor& y = out.at(0).second.tensor();
    ASSERT_EQ(y.type(), ElemType::UInt4);
    EXPECT_EQ(test::fields_of(y), std::vector<int>{sum});
  }
}

TEST(OpenVinoAsWrittenValues, OnnxAddOnUint4IsStillRefused) {
  // The widening belongs to the IR reader: ONNX's Add has no uint4 row, and check says so.
  test::GraphBuilder g;
  g.input("a", ElemType::UInt4).input("b", ElemType::UInt4);
  g.node("Add", {"a", "b"}, {"y"});
  g.output("y", ElemType::UInt4);
  Model m = Model::load_bytes(test::make_model(g, 21, 10).SerializeAsString(), "u4.onnx");
  bool refused = false;
  for (const Diagnostic& d : check_model(m))
    refused = refused || (d.error && d.message.find("tensor(uint4)") != std::string::npos);
  EXPECT_TRUE(refused);
}

// --- partial shapes and port dims -------------------------------------------------------

const char* kShaped = R"(<?xml version="1.0"?>
<net name="shapes" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="SHAPE"/>
      <output><port id="0" precision="FP32" names="x"/></output>
    </layer>
    <layer id="1" name="y" type="Abs" version="opset1">
      <input><port id="0" precision="FP32"/></input>
      <output><port id="1" precision="FP32" names="y">DIMS</port></output>
    </layer>
    <layer id="2" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"/></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";

std::string shaped(const std::string& shape, const std::string& dims = "") {
  return test::replaced(test::replaced(kShaped, "SHAPE", shape), "DIMS", dims);
}

// The rank and dims (-1 for unknown) of the input a Parameter `shape` gives, or "dynamic".
std::string input_shape_of(const std::string& shape) {
  auto model = openvino::read_model_text(shaped(shape), nullptr, "shapes.xml");
  const ir::Shape& s = model->graph->inputs.at(0)->type.shape;
  if (!s.rank_known) return "dynamic";
  std::string out = "[";
  for (const ir::Dim& d : s.dims)
    out += (out.size() > 1 ? "," : "") + (d.is_known() ? std::to_string(d.value) : "?");
  return out + "]";
}

TEST(OpenVinoAsWrittenValues, ParameterShapesMeanWhatOpenVinosPartialShapeReads) {
  // PartialShape(const std::string&) trims, drops one pair of brackets, takes "..." as a
  // dynamic rank and "" as a scalar; Dimension(const std::string&) takes ? and -1 as dynamic,
  // digits as a size and lo..hi (either end left out: 0, unbounded) as a range.
  EXPECT_EQ(input_shape_of("?"), "[?]");  // one dynamic dim, not a dynamic rank
  EXPECT_EQ(input_shape_of("..."), "dynamic");
  EXPECT_EQ(input_shape_of(""), "[]");
  EXPECT_EQ(input_shape_of("[2,3]"), "[2,3]");
  EXPECT_EQ(input_shape_of(" 1 , 2 "), "[1,2]");
  EXPECT_EQ(input_shape_of("1,-1,?"), "[1,?,?]");
  EXPECT_EQ(input_shape_of("1..10,..5,3..,4..4,.."), "[?,?,?,4,?]");
  EXPECT_EQ(input_shape_of("2,3,"), "[2,3]");  // std::getline gives no field after the comma
  // What Dimension(string) refuses (a sign, a signed bound, text, an empty field), and an
  // inverted range, which it reads as an empty interval that no tensor has.
  for (const char* bad : {"+3", "-2", "1..-1", "5..2", "1s", "1,,2", ",1", "1...2", "1,...,2"}) {
    EXPECT_THROW(openvino::read_model_text(shaped(bad), nullptr, "shapes.xml"), Error) << bad;
  }
}

// The dims of output port `y` as read from `dims` (<dim> elements).
ir::Shape port_shape_of(const std::string& dims) {
  auto net = openvino::parse_xml_net(shaped("2", dims), "dims.xml", 8);
  return net->layers.at(1).outputs.at(0).shape;
}

TEST(OpenVinoAsWrittenValues, PortDimsAreReadAsOpenVinosDeserializerReadsThem) {
  // parse_generic_params reads a <dim> by `stringstream >> int64_t` and refuses a failure or a
  // value below -1: -1 is a dynamic dim, space and a plus sign are skipped.
  ir::Shape s = port_shape_of("<dim>-1</dim><dim> 3 </dim><dim>+4</dim>");
  ASSERT_EQ(s.dims.size(), 3u);
  EXPECT_FALSE(s.dims[0].is_known());
  EXPECT_EQ(s.dims[1].value, 3);
  EXPECT_EQ(s.dims[2].value, 4);
  // "1..10" passes there as 1 with the rest unread; OpenVINO infers every shape of an operator
  // it knows, so the port asserts nothing: bough reads the dim as unknown.
  ir::Shape range = port_shape_of("<dim>1..10</dim>");
  ASSERT_EQ(range.dims.size(), 1u);
  EXPECT_FALSE(range.dims[0].is_known());
  // No <dim> at all: a dynamic rank (or a scalar the Parameter's shape tells).
  EXPECT_FALSE(port_shape_of("").rank_known);
  for (const char* bad : {"<dim>?</dim>", "<dim>-2</dim>", "<dim>x</dim>", "<dim></dim>"})
    EXPECT_THROW(port_shape_of(bad), Error) << bad;
}

}  // namespace
}  // namespace bough
