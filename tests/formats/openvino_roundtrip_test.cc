// Through the OpenVINO IR writer and back: IR -> IR, captures at every level, constants
// stored once, and `bough convert`. (The conformance models: openvino_conformance_test.cc.)
#include <gtest/gtest.h>

#include <filesystem>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

std::string spec_if_path() { return test::source_dir() + "/tests/fixtures/openvino/if8_spec.xml"; }

TEST(OpenVinoRoundTrip, IrToIrKeepsPortMapsAndNames) {
  auto model = openvino::read_model_file(spec_if_path());
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the written IR");
  // The If reads cond plus the three captured values x, z, w (ports 1 to 3); as in the
  // spec, then_body binds ports 1 and 2 and else_body ports 1 and 3, to its Parameters 0
  // and 1.
  EXPECT_NE(files.xml.find(R"(type="If" version="opset8")"), std::string::npos);
  for (const char* entry : {R"(<input external_port_id="2" internal_layer_id="1" />)",
                            R"(<input external_port_id="3" internal_layer_id="1" />)"})
    EXPECT_NE(files.xml.find(entry), std::string::npos) << files.xml;
  std::string dir = test::scratch_dir("ov_ir_ir");
  std::string path = test::save_ir(dir, "m", files.xml, files.bin);
  Tensor x = test::f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor z = test::f32({2, 4}, std::vector<float>(8, 10));
  Tensor w = test::f32({2, 4}, std::vector<float>(8, 100));
  // else: x + w = 101..108, under the original output name
  NamedValues out =
      test::run_ir(path, {{"cond", Tensor::scalar_bool(false)}, {"x", x}, {"z", z}, {"w", w}});
  EXPECT_EQ(out[0].first, "if/cond/Identity:0");
  EXPECT_EQ(test::floats_of(out[0].second.tensor()),
            (std::vector<float>{101, 102, 103, 104, 105, 106, 107, 108}));
}

TEST(OpenVinoRoundTrip, CaptureFromThreeLevelsUpBecomesAPortMapAtEachLevel) {
  // main: c, x; If1.then -> If2.then -> If3.then computes x + x, reading x (and c) from
  // main; each else returns x. In the IR each If takes c and x as inputs, and each body
  // binds them to its Parameters.
  auto branch = [](const std::string& name, const std::string& out) {
    test::GraphBuilder b(name);
    b.output_untyped(out);
    return b;
  };
  test::GraphBuilder l3t = branch("l3t", "s3"), l3e = branch("l3e", "e3");
  l3t.node("Add", {"x", "x"}, {"s3"});
  l3e.node("Identity", {"x"}, {"e3"});
  test::GraphBuilder l2t = branch("l2t", "s2"), l2e = branch("l2e", "e2");
  test::set_graph(l2t.node("If", {"c"}, {"s2"}, "level3"), "then_branch", l3t);
  test::set_graph(l2t.graph_node_last(), "else_branch", l3e);
  l2e.node("Identity", {"x"}, {"e2"});
  test::GraphBuilder l1t = branch("l1t", "s1"), l1e = branch("l1e", "e1");
  test::set_graph(l1t.node("If", {"c"}, {"s1"}, "level2"), "then_branch", l2t);
  test::set_graph(l1t.graph_node_last(), "else_branch", l2e);
  l1e.node("Identity", {"x"}, {"e1"});
  test::GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {3}).output("y", ElemType::Float, {3});
  test::set_graph(g.node("If", {"c"}, {"y"}, "level1"), "then_branch", l1t);
  test::set_graph(g.graph_node_last(), "else_branch", l1e);
  std::string dir = test::scratch_dir("ov_nested_captures");
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 17), dir, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the written IR");
  size_t ifs = 0;
  for (size_t at = files.xml.find(R"(type="If")"); at != std::string::npos;
       at = files.xml.find(R"(type="If")", at + 1))
    ++ifs;
  EXPECT_EQ(ifs, 3u);
  std::string path = test::save_ir(dir, "m", files.xml, files.bin);
  // c true: x + x = [2, 4, 6]; c false: x = [1, 2, 3]
  NamedValues t =
      test::run_ir(path, {{"c", Tensor::scalar_bool(true)}, {"x", test::f32({3}, {1, 2, 3})}});
  EXPECT_EQ(test::floats_of(t[0].second.tensor()), (std::vector<float>{2, 4, 6}));
  NamedValues f =
      test::run_ir(path, {{"c", Tensor::scalar_bool(false)}, {"x", test::f32({3}, {1, 2, 3})}});
  EXPECT_EQ(test::floats_of(f[0].second.tensor()), (std::vector<float>{1, 2, 3}));
  // Read back, every If again has only its condition as an input.
  auto back = openvino::read_model_file(path);
  const ir::Node* node = back->graph->nodes.at(0).get();
  for (int level = 1; level <= 3; ++level) {
    ASSERT_EQ(node->op_type, "If");
    EXPECT_EQ(node->inputs.size(), 1u);
    const ir::Graph& then_branch = *node->attr("then_branch")->g;
    node = then_branch.nodes.empty() ? nullptr : then_branch.nodes.back().get();
    if (level < 3) {
      ASSERT_NE(node, nullptr);
    }
  }
}

TEST(OpenVinoRoundTrip, IdenticalConstantsAreStoredOnce) {
  // y = (x + k1) * k2 where k1 and k2 hold the same four floats.
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {4}).output("y", ElemType::Float, {4});
  g.initializer("k1", test::f32({4}, {1, 2, 3, 4})).initializer("k2", test::f32({4}, {1, 2, 3, 4}));
  g.node("Add", {"x", "k1"}, {"s"});
  g.node("Mul", {"s", "k2"}, {"y"});
  std::string dir = test::scratch_dir("ov_blobs");
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 17), dir, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the written IR");
  EXPECT_EQ(files.bin.size(), 16u);
  std::string path = test::save_ir(dir, "m", files.xml, files.bin);
  // ([1, 1, 1, 1] + [1, 2, 3, 4]) * [1, 2, 3, 4] = [2, 6, 12, 20]
  NamedValues out = test::run_ir(path, {{"x", test::f32({4}, {1, 1, 1, 1})}});
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{2, 6, 12, 20}));
}

TEST(OpenVinoRoundTrip, RtInfoIsKeptThroughIrAndOnnx) {
  // rt_info on the Add layer and on the net, in the layout OpenVINO's serializer writes
  // (fused_names as an <attribute>, framework details under the net's <rt_info>).
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2}), {2}}, {test::ov_parameter(1, "y", {2}), {2}}}, "Add",
      "opset1", "", {2}, "z");
  xml = test::replaced(xml, R"(names="z"><dim>2</dim></port></output></layer>)",
                       R"(names="z"><dim>2</dim></port></output><rt_info><attribute )"
                       R"(name="fused_names" version="0" value="add_1,add_2"/></rt_info></layer>)");
  xml = test::replaced(xml, "</edges>", R"(</edges><rt_info><framework value="test"/></rt_info>)");
  auto model = openvino::read_model_text(xml, nullptr, "rt.xml");
  auto expect_kept = [](const std::string& written) {
    size_t add = written.find(R"(type="Add")");
    ASSERT_NE(add, std::string::npos) << written;
    size_t fused = written.find(R"(value="add_1,add_2")");
    EXPECT_TRUE(fused > add && fused < written.find("</layer>", add)) << written;
    EXPECT_NE(written.find(R"(<framework value="test")"), std::string::npos) << written;
  };
  expect_kept(openvino::write_ir(*model).xml);
  auto via_onnx = onnx::read_model_bytes(onnx::write_model_bytes(*model), "rt.onnx", "");
  expect_kept(openvino::write_ir(*via_onnx).xml);
}

TEST(OpenVinoRoundTrip, WhatHasNoOpenVinoFormIsRefusedNamingTheNode) {
  test::GraphBuilder g;
  // Trilu has no OpenVINO counterpart.
  g.input("x", ElemType::Float, {2, 2}).output("y", ElemType::Float, {2, 2});
  g.node("Trilu", {"x"}, {"y"}, "tri");
  std::string dir = test::scratch_dir("ov_refuse");
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 17), dir, "m.onnx"));
  try {
    openvino::write_ir(*model);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(e.where().find("main/Trilu \"tri\""), std::string::npos) << e.what();
  }
  // An input that is not a tensor cannot be a Parameter.
  test::GraphBuilder h;
  h.g_input_sequence("s").output("n", ElemType::Int64, {});
  h.node("SequenceLength", {"s"}, {"n"});
  model = onnx::read_model_file(test::save_model(test::make_model(h, 17), dir, "h.onnx"));
  EXPECT_THROW(openvino::write_ir(*model), Error);
}

TEST(OpenVinoRoundTrip, InputOfUnknownRank) {
  // y = relu(x), x of unknown rank: written with shape "...", read back as such.
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {}, false).output("y", ElemType::Float, {}, false);
  g.node("Relu", {"x"}, {"y"});
  std::string dir = test::scratch_dir("ov_unknown_rank");
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 17), dir, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  test::expect_ov_reader_accepts(files.xml, "the written IR");
  EXPECT_NE(files.xml.find(R"(element_type="f32" shape="...")"), std::string::npos) << files.xml;
  std::string path = test::save_ir(dir, "m", files.xml, files.bin);
  // relu([-1, 5, -3])
  NamedValues out = test::run_ir(path, {{"x", test::f32({3}, {-1, 5, -3})}});
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{0, 5, 0}));
}

TEST(OpenVinoRoundTrip, ConvertCommand) {
  std::string dir = test::scratch_dir("ov_convert");
  std::string output;
  // IR -> ONNX -> IR; the .onnx then runs through the CLI like any model.
  EXPECT_EQ(test::run_cli("convert '" + spec_if_path() + "' '" + dir + "/m.onnx'", &output), 0)
      << output;
  EXPECT_EQ(test::run_cli("convert '" + dir + "/m.onnx' '" + dir + "/back.xml'", &output), 0)
      << output;
  EXPECT_TRUE(fs::exists(dir + "/back.bin"));
  EXPECT_NO_THROW(Model::load(dir + "/back.xml"));
  EXPECT_EQ(test::run_cli("info '" + dir + "/back.xml'", &output), 0) << output;
  EXPECT_NE(output.find("If"), std::string::npos) << output;
  // Never onto its input, and only to known extensions.
  EXPECT_EQ(test::run_cli("convert '" + dir + "/m.onnx' '" + dir + "/./m.onnx'", &output), 2);
  EXPECT_NE(output.find("never overwrites its input"), std::string::npos) << output;
  EXPECT_EQ(test::run_cli("convert '" + dir + "/back.xml' '" + dir + "/m.txt'", &output), 2);
  EXPECT_EQ(test::run_cli("convert '" + dir + "/back.xml' '" + dir + "/i.onnx' --captures implicit",
                          &output),
            0)
      << output;
  EXPECT_EQ(
      test::run_cli("convert '" + dir + "/back.xml' '" + dir + "/b.onnx' --captures some", &output),
      2);
  // --opset: the ONNX written at another opset. The spec If's bodies Add, which broadcasts
  // as it does now from opset 7: at 7 it converts, at 5 it is refused naming both Adds, and
  // nothing is written. Only for ONNX output, and a number.
  EXPECT_EQ(
      test::run_cli("convert '" + spec_if_path() + "' '" + dir + "/o7.onnx' --opset 7", &output), 0)
      << output;
  EXPECT_EQ(onnx::read_model_file(dir + "/o7.onnx")->opset(""), 7);
  EXPECT_NE(
      test::run_cli("convert '" + spec_if_path() + "' '" + dir + "/o5.onnx' --opset 5", &output),
      0);
  EXPECT_NE(output.find("then_branch/Add \"Add\": Add broadcasts"), std::string::npos) << output;
  EXPECT_NE(output.find("else_branch/Add \"Add\""), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(dir + "/o5.onnx"));
  EXPECT_EQ(
      test::run_cli("convert '" + spec_if_path() + "' '" + dir + "/o21.onnx' --opset 21", &output),
      0)
      << output;
  EXPECT_EQ(onnx::read_model_file(dir + "/o21.onnx")->opset(""), 21);
  EXPECT_EQ(test::run_cli("convert '" + dir + "/back.xml' '" + dir + "/o.xml' --opset 21", &output),
            2);
  EXPECT_EQ(test::run_cli("convert '" + dir + "/back.xml' '" + dir + "/o.onnx' --opset x", &output),
            2);
  // A model that cannot be converted leaves no output behind.
  EXPECT_NE(test::run_cli("convert '" + dir + "/missing.onnx' '" + dir + "/x.xml'", &output), 0);
  EXPECT_FALSE(fs::exists(dir + "/x.xml"));
}

}  // namespace
}  // namespace bough
