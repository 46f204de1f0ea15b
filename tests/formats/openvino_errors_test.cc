// Malformed OpenVINO IR gets a bough::Error naming the file and the layer, never a crash.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/model.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

// x + k, where k is a Const [2] f32 read from bytes 0..8 of the .bin. The <rt_info>
// sections carry nothing bough uses and are skipped.
const char* kBase = R"(<?xml version="1.0"?>
<net name="base" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="k" type="Const" version="opset1">
      <data element_type="f32" shape="2" offset="0" size="8"/>
      <output><port id="0" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="add" type="Add" version="opset1">
      <input><port id="0"><dim>2</dim></port><port id="1"><dim>2</dim></port></input>
      <output><port id="2" precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="out" type="Result" version="opset1">
      <input><port id="0"><dim>2</dim></port></input>
      <rt_info><attribute name="fused_names" version="0" value="out"/></rt_info>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
  <rt_info><MO_version value="2023.0"/><conversion_parameters><framework value="onnx"/></conversion_parameters></rt_info>
</net>
)";

using test::replaced;

// Loads `xml` (with 8 bytes of weights) and returns the error it raises.
Error load_error(const std::string& xml, const std::string& weights = std::string(8, '\0')) {
  return test::ir_load_error("ov_err", xml, weights);
}

TEST(OpenVinoErrors, TheBaseModelRuns) {
  std::string path =
      test::save_ir(test::scratch_dir("ov_ok"), "m", kBase, test::bytes_of<float>({0.5f, 0.25f}));
  // [1, 2] + [0.5, 0.25]
  NamedValues out = test::run_ir(path, {{"x", test::f32({2}, {1, 2})}});
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{1.5f, 2.25f}));
}

// An Interpolate layer without input ports (found by fuzz/openvino_structure.cc): its
// mapping read input 0's port before checking the arity, and std::out_of_range escaped.
TEST(OpenVinoErrors, LayerWithoutTheInputsItsOperatorTakes) {
  const std::string xml = R"(<?xml version="1.0"?>
<net name="bare" version="11"><layers>
<layer id="0" name="resize" type="Interpolate" version="opset11"><data mode="nearest"/>
<output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="1" name="y" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></net>)";
  Error e = load_error(xml);
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(std::string(e.where()).find("Interpolate \"resize\""), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("expected 2 to 4 inputs"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, EdgeToAMissingLayer) {
  Error e = load_error(replaced(kBase, R"(to-layer="3")", R"(to-layer="9")"));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.message().find("goes to a missing layer"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, EdgeToAMissingPort) {
  Error e =
      load_error(replaced(kBase, R"(to-layer="2" to-port="1")", R"(to-layer="2" to-port="5")"));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Add \"add\" (id 2)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("no input port 5"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, ConstPastTheEndOfTheWeights) {
  Error e = load_error(kBase, std::string(6, '\0'));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Const \"k\" (id 1)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("past the end"), std::string::npos) << e.what();
  // An offset so large that offset + size wraps around is past the end too.
  Error wrap = load_error(replaced(kBase, R"(offset="0")", R"(offset="18446744073709551615")"));
  EXPECT_NE(wrap.message().find("past the end"), std::string::npos) << wrap.what();
}

TEST(OpenVinoErrors, MissingWeightsFile) {
  Error e = load_error(kBase, "");
  EXPECT_EQ(e.kind(), ErrorKind::IO);
  EXPECT_NE(e.where().find("Const \"k\""), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, UnknownElementType) {
  Error e = load_error(replaced(kBase, R"(element_type="f32" shape="2" offset)",
                                R"(element_type="nf4" shape="2" offset)"));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("Const \"k\""), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("'nf4'"), std::string::npos) << e.what();
  Error p = load_error(replaced(kBase, R"(precision="FP32"><dim>2</dim></port></output>
    </layer>
    <layer id="2")",
                                R"(precision="Q7"><dim>2</dim></port></output>
    </layer>
    <layer id="2")"));
  EXPECT_NE(p.message().find("'Q7'"), std::string::npos) << p.what();
}

TEST(OpenVinoErrors, Cycle) {
  // add reads its own output instead of k.
  Error e = load_error(replaced(kBase, R"(from-layer="1" from-port="0" to-layer="2")",
                                R"(from-layer="2" from-port="2" to-layer="2")"));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Add \"add\" (id 2)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("cycle"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, EveryUnmappedOperatorIsListed) {
  std::string xml = replaced(kBase, R"(type="Add")", R"(type="Frobnicate")");
  xml = replaced(xml, R"(type="Result")", R"(type="Zap")");
  Error e = load_error(xml);
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.message().find("Frobnicate, Zap"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, MalformedXmlAndVersions) {
  Error e = load_error("<net version=\"11\"><layers>");
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  Error v = load_error(replaced(kBase, R"(version="11")", R"(version="7")"));
  EXPECT_EQ(v.kind(), ErrorKind::Unsupported);
}

// If with cond and x; its then_body is `body` (bound to x), its else_body returns x.
std::string if_layer(int id, const std::string& then_body, const std::string& then_map) {
  return R"(<layer id=")" + std::to_string(id) + R"(" name="if)" + std::to_string(id) +
         R"(" type="If" version="opset8">
  <input><port id="0"/><port id="1"><dim>2</dim></port></input>
  <output><port id="2" precision="FP32"><dim>2</dim></port></output>
  <then_port_map>)" +
         then_map + R"(<output external_port_id="0" internal_layer_id="9"/></then_port_map>
  <else_port_map><input external_port_id="1" internal_layer_id="0"/><output external_port_id="0" internal_layer_id="9"/></else_port_map>
  <then_body>)" +
         then_body + R"(</then_body>
  <else_body><layers>
    <layer id="0" name="p" type="Parameter" version="opset1"><data element_type="f32" shape="2"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
    <layer id="9" name="r" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
  </layers><edges><edge from-layer="0" from-port="0" to-layer="9" to-port="0"/></edges></else_body>
</layer>)";
}

// Parameters c and x, then `depth` Ifs nested in then_bodies; the innermost then_body
// negates x. Each body binds c and x to the next If's inputs.
std::string nested_ifs(int depth, const std::string& inner_map) {
  const std::string params =
      R"(<layer id="0" name="x" type="Parameter" version="opset1"><data element_type="f32" shape="2"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="1" name="c" type="Parameter" version="opset1"><data element_type="boolean" shape=""/><output><port id="0" precision="BOOL"/></output></layer>)";
  std::string body = R"(<layers>
    <layer id="0" name="p" type="Parameter" version="opset1"><data element_type="f32" shape="2"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
    <layer id="5" name="neg" type="Negative" version="opset1"><input><port id="0"><dim>2</dim></port></input><output><port id="1" precision="FP32"><dim>2</dim></port></output></layer>
    <layer id="9" name="r" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
  </layers><edges><edge from-layer="0" from-port="0" to-layer="5" to-port="0"/><edge from-layer="5" from-port="1" to-layer="9" to-port="0"/></edges>)";
  std::string map = inner_map;
  for (int level = depth; level >= 1; --level) {
    std::string layer = if_layer(5, body, map);
    if (level == 1) {
      return R"(<?xml version="1.0"?><net name="nest" version="11"><layers>)" + params + layer +
             R"(<layer id="9" name="out" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="1" from-port="0" to-layer="5" to-port="0"/><edge from-layer="0" from-port="0" to-layer="5" to-port="1"/>
<edge from-layer="5" from-port="2" to-layer="9" to-port="0"/></edges></net>)";
    }
    // The next level out: a body with Parameters x (id 0) and c (id 1) feeding this If.
    body =
        "<layers>" + params + layer +
        R"(<layer id="9" name="r" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="1" from-port="0" to-layer="5" to-port="0"/><edge from-layer="0" from-port="0" to-layer="5" to-port="1"/>
<edge from-layer="5" from-port="2" to-layer="9" to-port="0"/></edges>)";
    map =
        R"(<input external_port_id="1" internal_layer_id="0"/><input external_port_id="0" internal_layer_id="1"/>)";
  }
  return "";
}

TEST(OpenVinoErrors, NestedIfRunsAndTooDeepNestingIsRefused) {
  const std::string bind_x = R"(<input external_port_id="1" internal_layer_id="0"/>)";
  // Three Ifs deep, all on c: c true negates x at the innermost level; c false returns x
  // from the outermost else_body. Layer ids repeat across bodies.
  std::string path = test::save_ir(test::scratch_dir("ov_nest"), "m", nested_ifs(3, bind_x));
  Tensor x = test::f32({2}, {1, -2});
  NamedValues t = test::run_ir(path, {{"x", x}, {"c", Tensor::scalar_bool(true)}});
  EXPECT_EQ(test::floats_of(t[0].second.tensor()), (std::vector<float>{-1, 2}));
  NamedValues f = test::run_ir(path, {{"x", x}, {"c", Tensor::scalar_bool(false)}});
  EXPECT_EQ(test::floats_of(f[0].second.tensor()), (std::vector<float>{1, -2}));
  // One level beyond the limit of 64 bodies (OpenVINO's reader loads 64 and refuses more).
  Error e = load_error(nested_ifs(65, bind_x));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.message().find("nested more than 64"), std::string::npos) << e.what();
  EXPECT_NE(e.where().find("If \"if5\" (id 5)"), std::string::npos) << e.what();
}

TEST(OpenVinoErrors, PortMapToAMissingParameterOrResult) {
  Error p = load_error(nested_ifs(1, R"(<input external_port_id="1" internal_layer_id="4"/>)"));
  EXPECT_EQ(p.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(p.where().find("If \"if5\" (id 5)"), std::string::npos) << p.what();
  EXPECT_NE(p.message().find("then_port_map refers to Parameter 4"), std::string::npos) << p.what();
  std::string xml = replaced(
      nested_ifs(1, R"(<input external_port_id="1" internal_layer_id="0"/>)"),
      R"(<else_port_map><input external_port_id="1" internal_layer_id="0"/><output external_port_id="0" internal_layer_id="9"/>)",
      R"(<else_port_map><input external_port_id="1" internal_layer_id="0"/><output external_port_id="0" internal_layer_id="7"/>)");
  Error r = load_error(xml);
  EXPECT_NE(r.message().find("else_port_map refers to Result 7"), std::string::npos) << r.what();
  // A Parameter that no port map entry binds.
  Error u = load_error(nested_ifs(1, ""));
  EXPECT_NE(u.where().find("then_body/Parameter \"p\" (id 0)"), std::string::npos) << u.what();
  EXPECT_NE(u.message().find("not bound by then_port_map"), std::string::npos) << u.what();
}

}  // namespace
}  // namespace bough
