// Stateful models (formats/openvino/ops/state.cc, ops/openvino/read_value.cc and assign.cc):
// OpenVINO's ReadValue and Assign as OpenVINO's serializer writes them (sinks after the other
// layers, Assign with an output port), run by a Session that keeps the variables between
// runs and resets them; written back as IR, and as ONNX in its stateless form
// (formats/onnx/variables.h); and what the check refuses. Expected values are worked out by
// hand: an accumulator sum = variable + x, assigned back, gives x, 2x, 3x over three runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <sstream>

#include "bough/model_tools.h"
#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

const std::string kPort2 = "<dim>2</dim>";

std::string port(int id, const std::string& precision = "FP32", const std::string& names = "") {
  return "<port id=\"" + std::to_string(id) + "\" precision=\"" + precision + "\"" +
         (names.empty() ? "" : " names=\"" + names + "\"") + ">" + kPort2 + "</port>";
}

std::string parameter(int id, const std::string& name, const std::string& type = "f32") {
  const std::string precision = type == "f32" ? "FP32" : "I64";
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Parameter\" version=\"opset1\"><data shape=\"2\" element_type=\"" + type +
         "\"/><output>" + port(0, precision, name) + "</output></layer>";
}

// A ReadValue of variable `var`; with `init`, its init_value on port 0 and its output on 1.
std::string read_value(int id, const std::string& version, const std::string& data, bool init,
                       const std::string& in_precision = "FP32") {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"read_" + std::to_string(id) +
         "\" type=\"ReadValue\" version=\"" + version + "\"><data " + data + "/>" +
         (init ? "<input>" + port(0, in_precision) + "</input>" : "") + "<output>" +
         port(init ? 1 : 0) + "</output></layer>";
}

std::string two_in_one_out(int id, const std::string& type, const std::string& name) {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name + "\" type=\"" + type +
         "\" version=\"opset1\"><input>" + port(0) + port(1) + "</input><output>" +
         port(2, "FP32", name) + "</output></layer>";
}

std::string assign(int id, const std::string& var, const std::string& version = "opset6",
                   const std::string& precision = "FP32") {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"assign_" + std::to_string(id) +
         "\" type=\"Assign\" version=\"" + version + "\"><data variable_id=\"" + var +
         "\"/><input>" + port(0, precision) + "</input><output>" + port(1, precision) +
         "</output></layer>";
}

std::string result(int id, const std::string& name) {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Result\" version=\"opset1\"><input>" + port(0) + "</input></layer>";
}

using Edge = std::array<int, 4>;  // from layer, from port, to layer, to port

std::string net(const std::vector<std::string>& layers, const std::vector<Edge>& edges) {
  std::string s = "<?xml version=\"1.0\"?>\n<net name=\"state\" version=\"11\"><layers>";
  for (const std::string& l : layers) s += l;
  s += "</layers><edges>";
  for (const Edge& e : edges)
    s += "<edge from-layer=\"" + std::to_string(e[0]) + "\" from-port=\"" + std::to_string(e[1]) +
         "\" to-layer=\"" + std::to_string(e[2]) + "\" to-port=\"" + std::to_string(e[3]) + "\"/>";
  return s + "</edges><rt_info/></net>\n";
}

const std::string kVar6 = R"(variable_id="acc" variable_type="f32" variable_shape="2")";

// x -> sum = ReadValue(acc) + x -> Assign(acc), Result sum. ReadValue-6 without init_value:
// the first run reads zeros.
std::string accumulator() {
  return net({parameter(0, "x"), read_value(1, "opset6", kVar6, false),
              two_in_one_out(2, "Add", "sum"), assign(3, "acc"), result(4, "sum/sink_port_0")},
             {{1, 0, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {2, 2, 4, 0}});
}

// The same with init_value, a Parameter `init` (ReadValue of `version`).
std::string accumulator_with_init(const std::string& version, const std::string& data) {
  return net(
      {parameter(0, "x"), parameter(5, "init"), read_value(1, version, data, true),
       two_in_one_out(2, "Add", "sum"), assign(3, "acc", version), result(4, "sum/sink_port_0")},
      {{5, 0, 1, 0}, {1, 1, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {2, 2, 4, 0}});
}

Model load(const std::string& dir, const std::string& xml) {
  return Model::load(test::save_ir(test::scratch_dir(dir), "m", xml));
}

std::vector<float> run_sum(Session& s, std::vector<float> x, NamedValues more = {}) {
  more.emplace_back("x", f32({2}, std::move(x)));
  NamedValues out = s.run(more);
  EXPECT_EQ(out[0].first, "sum");
  return floats_of(out[0].second.tensor());
}

TEST(OpenVinoState, AccumulatesAcrossRunsAndResets) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    Session s(load("ov_state_acc", accumulator()), {.threads = threads});
    EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{1, 2}));
    EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{2, 4}));
    EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{3, 6}));
    s.reset_state();
    EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{1, 2}));
    EXPECT_EQ(run_sum(s, {10, 20}), (std::vector<float>{11, 22}));
  }
}

TEST(OpenVinoState, SessionsKeepTheirOwnVariables) {
  Model m = load("ov_state_two", accumulator());
  Session a(m), b(m);
  EXPECT_EQ(run_sum(a, {1, 2}), (std::vector<float>{1, 2}));
  EXPECT_EQ(run_sum(a, {1, 2}), (std::vector<float>{2, 4}));
  EXPECT_EQ(run_sum(b, {5, 5}), (std::vector<float>{5, 5}));
  EXPECT_EQ(run_sum(a, {1, 2}), (std::vector<float>{3, 6}));
  b.reset_state();  // a's variable stays
  EXPECT_EQ(run_sum(a, {1, 2}), (std::vector<float>{4, 8}));
  EXPECT_EQ(run_sum(b, {5, 5}), (std::vector<float>{5, 5}));
}

// An output the caller writes into is not the variable: the next run still reads its own copy.
TEST(OpenVinoState, WritingAnOutputLeavesTheVariable) {
  Session s(load("ov_state_alias", accumulator()));
  NamedValues out = s.run({{"x", f32({2}, {1, 2})}});
  out[0].second.as_tensor().data<float>()[0] = 100;
  EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{2, 4}));
}

// The variable takes the buffer Add made when nothing else holds it (assign.cc). Here Add's
// output is no graph output, so the plan keeps that buffer for Add's next run: Add must then
// write a new one, not the variable. prev = the variable before each run: 0, x, 2x, 3x.
TEST(OpenVinoState, VariableTakingAComputedBufferIsNotOverwrittenNextRun) {
  const std::string xml =
      net({parameter(0, "x"), read_value(1, "opset6", kVar6, false),
           two_in_one_out(2, "Add", "sum"), assign(3, "acc"), result(4, "prev")},
          {{1, 0, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {1, 0, 4, 0}});
  Session s(load("ov_state_handover", xml));
  for (float k : {0.0F, 1.0F, 2.0F, 3.0F}) {
    NamedValues out = s.run({{"x", f32({2}, {1, 2})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{k, 2 * k}));
  }
}

// Assign of a graph input keeps a copy: the caller's tensor is the caller's to write into.
TEST(OpenVinoState, AssignOfAnInputCopiesTheCallersTensor) {
  const std::string xml = net({parameter(0, "x"), read_value(1, "opset6", kVar6, false),
                               assign(3, "acc"), result(4, "prev")},
                              {{0, 0, 3, 0}, {1, 0, 4, 0}});
  Session s(load("ov_state_input", xml));
  // The caller's Value holds the only reference to its buffer (the run borrows it).
  NamedValues in{{"x", f32({2}, {1, 2})}};
  s.run(in);
  in[0].second.as_tensor().data<float>()[0] = 100;  // after the run: the variable is [1, 2]
  NamedValues out = s.run({{"x", f32({2}, {5, 5})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2}));
}

// ReadValue-6's init_value is read on the first run and after a reset, never in between.
TEST(OpenVinoState, InitValueOnFirstRunAndAfterReset) {
  Session s(load("ov_state_init", accumulator_with_init("opset6", kVar6)));
  auto init = [](float a, float b) { return NamedValues{{"init", f32({2}, {a, b})}}; };
  EXPECT_EQ(run_sum(s, {1, 2}, init(10, 20)), (std::vector<float>{11, 22}));
  EXPECT_EQ(run_sum(s, {1, 2}, init(100, 100)), (std::vector<float>{12, 24}));
  s.reset_state();
  EXPECT_EQ(run_sum(s, {1, 2}, init(100, 100)), (std::vector<float>{101, 102}));
}

// ReadValue-3 / Assign-3: the variable takes init_value's type; written back as version 3.
TEST(OpenVinoState, ReadValue3) {
  const std::string xml = accumulator_with_init("opset3", R"(variable_id="acc")");
  Model m = load("ov_state_3", xml);
  Session s(m);
  auto init = NamedValues{{"init", f32({2}, {-1, -1})}};
  EXPECT_EQ(run_sum(s, {1, 2}, init), (std::vector<float>{0, 1}));
  EXPECT_EQ(run_sum(s, {1, 2}, init), (std::vector<float>{1, 3}));
  const std::string again = openvino::write_ir(m.ir()).xml;
  EXPECT_NE(again.find(R"(type="ReadValue" version="opset3")"), std::string::npos) << again;
  EXPECT_NE(again.find(R"(type="Assign" version="opset3")"), std::string::npos) << again;
  EXPECT_EQ(again.find("variable_type"), std::string::npos) << again;
}

// A ReadValue that only its Assign's path reads (no Result depends on it) is kept with it.
TEST(OpenVinoState, ReadValueReadOnlyOnTheAssignsPathIsKept) {
  const std::string xml =
      net({parameter(0, "x"), read_value(1, "opset6", kVar6, false),
           two_in_one_out(2, "Add", "sum"), assign(3, "acc"), result(4, "x/sink_port_0")},
          {{1, 0, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {0, 0, 4, 0}});
  Model m = load("ov_state_hidden", xml);
  for (const Diagnostic& d : check_model(m)) EXPECT_FALSE(d.error) << d.place << ": " << d.message;
  Session s(m);
  NamedValues out = s.run({{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2}));
}

// A run that fails after the Assign ran leaves the variable as the last good run set it.
TEST(OpenVinoState, FailedRunChangesNoVariable) {
  // Assign's output feeds a Reshape to the runtime shape `s`, which fails for s = [3].
  const std::string reshape =
      R"(<layer id="6" name="r" type="Reshape" version="opset1"><data special_zero="false"/>)"
      R"(<input>)" +
      port(0) + R"(<port id="1" precision="I64"><dim>1</dim></port></input><output>)" +
      port(2, "FP32", "r") + "</output></layer>";
  const std::string shape_param =
      R"(<layer id="5" name="s" type="Parameter" version="opset1"><data shape="1" )"
      R"(element_type="i64"/><output><port id="0" precision="I64" names="s"><dim>1</dim>)"
      R"(</port></output></layer>)";
  const std::string xml =
      net({parameter(0, "x"), shape_param, read_value(1, "opset6", kVar6, false),
           two_in_one_out(2, "Add", "sum"), assign(3, "acc"), reshape, result(4, "sum/sink_port_0"),
           result(7, "r/sink_port_0")},
          {{1, 0, 2, 0},
           {0, 0, 2, 1},
           {2, 2, 3, 0},
           {3, 1, 6, 0},
           {5, 0, 6, 1},
           {2, 2, 4, 0},
           {6, 2, 7, 0}});
  Session s(load("ov_state_fail", xml));
  auto shape = [](int64_t n) { return NamedValues{{"s", test::i64({1}, {n})}}; };
  EXPECT_EQ(run_sum(s, {1, 2}, shape(2)), (std::vector<float>{1, 2}));
  EXPECT_THROW(run_sum(s, {1, 2}, shape(3)), Error);
  EXPECT_EQ(run_sum(s, {1, 2}, shape(2)), (std::vector<float>{2, 4}));
}

// IR -> IR: ReadValue-6 and Assign-6 with OpenVINO's attributes, the Assign with an output
// port; what is read back runs the same.
TEST(OpenVinoState, WrittenBackAsOpenVinoWritesIt) {
  Model m = load("ov_state_ir", accumulator());
  openvino::IrFiles ir = openvino::write_ir(m.ir());
  EXPECT_NE(ir.xml.find(R"(type="ReadValue" version="opset6")"), std::string::npos) << ir.xml;
  EXPECT_NE(ir.xml.find(R"(variable_id="acc")"), std::string::npos) << ir.xml;
  EXPECT_NE(ir.xml.find(R"(variable_shape="2")"), std::string::npos) << ir.xml;
  EXPECT_NE(ir.xml.find(R"(variable_type="f32")"), std::string::npos) << ir.xml;
  const size_t at = ir.xml.find(R"(type="Assign" version="opset6")");
  ASSERT_NE(at, std::string::npos) << ir.xml;
  const std::string assign_layer = ir.xml.substr(at, ir.xml.find("</layer>", at) - at);
  EXPECT_NE(assign_layer.find("<output>"), std::string::npos) << assign_layer;
  EXPECT_EQ(assign_layer.find("<port id=\"1\""), assign_layer.rfind("<port id=\"")) << assign_layer;
  test::expect_ov_reader_accepts(ir.xml, "stateful IR");
  Session s(Model(std::shared_ptr<ir::Model>(openvino::read_model_text(ir.xml, &ir.bin, "again"))));
  EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{1, 2}));
  EXPECT_EQ(run_sum(s, {1, 2}), (std::vector<float>{2, 4}));
}

// A variable of dynamic type and rank (as older IR has them) takes its init_value's type, and
// goes back as OpenVINO spells it.
TEST(OpenVinoState, DynamicVariableWrittenBack) {
  Model m = load("ov_state_dyn",
                 accumulator_with_init("opset6", R"(variable_id="acc" variable_type="dynamic" )"
                                                 R"(variable_shape="...")"));
  const std::string xml = openvino::write_ir(m.ir()).xml;
  EXPECT_NE(xml.find(R"(variable_shape="...")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(variable_type="dynamic")"), std::string::npos) << xml;
  Session s(m);
  auto init = NamedValues{{"init", f32({2}, {1, 1})}};
  EXPECT_EQ(run_sum(s, {1, 2}, init), (std::vector<float>{2, 3}));
  EXPECT_EQ(run_sum(s, {1, 2}, init), (std::vector<float>{3, 5}));
}

// IR -> ONNX: the variable becomes the input input_restored.acc and the output
// output_restored.acc (OpenVINO's StatefulToStateless names), and the ONNX runs one step.
TEST(OpenVinoState, OnnxFormTakesAndGivesTheState) {
  Model m = load("ov_state_onnx", accumulator_with_init("opset6", kVar6));
  std::shared_ptr<ir::Model> stateless(
      onnx::read_model_bytes(onnx::write_model_bytes(m.ir()), "m.onnx", ""));
  EXPECT_TRUE(check_model(Model(stateless)).empty());
  for (const auto& n : stateless->graph->nodes) EXPECT_TRUE(n->domain.empty()) << n->op_type;
  for (const auto& [domain, v] : stateless->opset_imports) EXPECT_NE(domain, "org.openvinotoolkit");
  Session s{Model(stateless)};
  std::vector<std::string> ins = s.input_names();
  EXPECT_NE(std::find(ins.begin(), ins.end(), "input_restored.acc"), ins.end());
  // The init_value only fed the ReadValue, which is gone; its graph input stays.
  NamedValues out = s.run({{"x", f32({2}, {1, 2})},
                           {"init", f32({2}, {9, 9})},
                           {"input_restored.acc", f32({2}, {5, 6})}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first, "sum");
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{6, 8}));
  EXPECT_EQ(out[1].first, "output_restored.acc");
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{6, 8}));
}

// Without init_value, the state input's default is the first run's zeros.
TEST(OpenVinoState, OnnxStateInputDefaultsToZeros) {
  Model m = load("ov_state_onnx_zeros", accumulator());
  std::shared_ptr<ir::Model> stateless(
      onnx::read_model_bytes(onnx::write_model_bytes(m.ir()), "m.onnx", ""));
  Session s{Model(stateless)};
  ASSERT_EQ(s.inputs().size(), 2u);
  EXPECT_EQ(s.inputs()[1].name, "input_restored.acc");
  EXPECT_TRUE(s.inputs()[1].has_default);
  NamedValues first = s.run({{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(first[1].second.tensor()), (std::vector<float>{1, 2}));
  NamedValues next = s.run({{"x", f32({2}, {1, 2})}, {"input_restored.acc", first[1].second}});
  EXPECT_EQ(floats_of(next[0].second.tensor()), (std::vector<float>{2, 4}));
}

// Many variables at once (the ONNX form rewires all their readers in one walk): 300
// accumulators sum_k = acc_k + x, each with its own input_restored.acc_k and
// output_restored.acc_k. Given acc_k = k and x = {1, 2}, sum_k and the new state are
// {k + 1, k + 2}.
TEST(OpenVinoState, OnnxFormOfManyVariables) {
  constexpr int kVars = 300;
  std::vector<std::string> layers = {parameter(0, "x")};
  std::vector<Edge> edges;
  for (int k = 0; k < kVars; ++k) {
    const int id = 4 * k + 1;
    const std::string var = "acc_" + std::to_string(k), sum = "sum_" + std::to_string(k);
    layers.push_back(read_value(
        id, "opset6", "variable_id=\"" + var + "\" variable_type=\"f32\" variable_shape=\"2\"",
        false));
    layers.push_back(two_in_one_out(id + 1, "Add", sum));
    layers.push_back(assign(id + 2, var));
    layers.push_back(result(id + 3, sum + "/sink_port_0"));
    edges.push_back({id, 0, id + 1, 0});
    edges.push_back({0, 0, id + 1, 1});
    edges.push_back({id + 1, 2, id + 2, 0});
    edges.push_back({id + 1, 2, id + 3, 0});
  }
  Model m = load("ov_state_many", net(layers, edges));
  std::shared_ptr<ir::Model> stateless(
      onnx::read_model_bytes(onnx::write_model_bytes(m.ir()), "m.onnx", ""));
  Session s{Model(stateless)};
  NamedValues in = {{"x", f32({2}, {1, 2})}};
  for (int k = 0; k < kVars; ++k)
    in.emplace_back("input_restored.acc_" + std::to_string(k),
                    f32({2}, {static_cast<float>(k), static_cast<float>(k)}));
  NamedValues out = s.run(in);
  ASSERT_EQ(out.size(), 2u * kVars);
  std::map<std::string, std::vector<float>> by_name;
  for (const auto& [name, v] : out) by_name[name] = floats_of(v.tensor());
  for (int k = 0; k < kVars; ++k) {
    const std::vector<float> want = {k + 1.0f, k + 2.0f};
    EXPECT_EQ(by_name["sum_" + std::to_string(k)], want) << k;
    EXPECT_EQ(by_name["output_restored.acc_" + std::to_string(k)], want) << k;
  }
}

// OpenVINO's own js_add_model_with_var.xml: a ReadValue-6 whose init_value is data1, with no
// Assign, so every run reads data1: the output is data1 + data2 each time. Its ONNX form is
// the Add of the two.
TEST(OpenVinoState, VariableWithoutAssignIsItsInitValue) {
  std::ifstream in(test::source_dir() +
                   "/tests/fixtures/openvino/corpus/js_add_model_with_var.xml");
  std::stringstream xml;
  xml << in.rdbuf();
  Model m = load("ov_state_js", xml.str());
  Session s(m);
  for (float k : {1.0f, 2.0f}) {
    NamedValues out =
        s.run({{"data1", f32({1, 5}, {k, k, k, k, k})}, {"data2", f32({1, 5}, {0, 1, 2, 3, 4})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()),
              (std::vector<float>{k, k + 1, k + 2, k + 3, k + 4}));
  }
  std::unique_ptr<ir::Model> stateless(
      onnx::read_model_bytes(onnx::write_model_bytes(m.ir()), "m.onnx", ""));
  EXPECT_EQ(stateless->graph->inputs.size(), 2u);
  EXPECT_EQ(stateless->graph->outputs.size(), 1u);
}

std::string check_errors(const std::string& dir, const std::string& xml) {
  std::string all;
  for (const Diagnostic& d : check_model(load(dir, xml)))
    if (d.error) all += d.place + ": " + d.message + "\n";
  return all;
}

void expect_refused(const std::string& dir, const std::string& xml, const std::string& text) {
  const std::string errors = check_errors(dir, xml);
  EXPECT_NE(errors.find(text), std::string::npos) << errors;
  EXPECT_THROW(Session{load(dir + "_session", xml)}, Error);
}

TEST(OpenVinoStateCheck, RefusesAnAssignWithoutReadValue) {
  expect_refused(
      "ov_state_no_read",
      test::replaced(accumulator(), R"(variable_id="acc"/>)", R"(variable_id="other"/>)"),
      "Assign to variable 'other', which no ReadValue reads");
}

TEST(OpenVinoStateCheck, RefusesTwoAssignsToOneVariable) {
  const std::string xml = net(
      {parameter(0, "x"), read_value(1, "opset6", kVar6, false), two_in_one_out(2, "Add", "sum"),
       assign(3, "acc"), assign(5, "acc"), result(4, "sum/sink_port_0")},
      {{1, 0, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {0, 0, 5, 0}, {2, 2, 4, 0}});
  expect_refused("ov_state_two_assigns", xml, "a second Assign to variable 'acc'");
}

TEST(OpenVinoStateCheck, RefusesTwoReadValuesOfOneVariable) {
  const std::string xml = net({parameter(0, "x"), read_value(1, "opset6", kVar6, false),
                               read_value(5, "opset6", kVar6, false),
                               two_in_one_out(2, "Add", "sum"), result(4, "sum/sink_port_0")},
                              {{1, 0, 2, 0}, {5, 0, 2, 1}, {2, 2, 4, 0}});
  expect_refused("ov_state_two_reads", xml, "a second ReadValue of variable 'acc'");
}

// The Assign writes int64 (a Convert of the sum) to the float variable.
TEST(OpenVinoStateCheck, RefusesAnAssignOfAnotherType) {
  const std::string convert =
      R"(<layer id="5" name="c" type="Convert" version="opset1"><data destination_type="i64"/>)"
      "<input>" +
      port(0) + "</input><output>" + port(1, "I64") + "</output></layer>";
  const std::string xml = net(
      {parameter(0, "x"), read_value(1, "opset6", kVar6, false), two_in_one_out(2, "Add", "sum"),
       convert, assign(3, "acc", "opset6", "I64"), result(4, "sum/sink_port_0")},
      {{1, 0, 2, 0}, {0, 0, 2, 1}, {2, 2, 5, 0}, {5, 1, 3, 0}, {2, 2, 4, 0}});
  expect_refused("ov_state_assign_type", xml, "Assign writes tensor(int64)");
}

// variable_type f32 with an int64 init_value.
TEST(OpenVinoStateCheck, RefusesAnInitValueOfAnotherType) {
  const std::string xml = net(
      {parameter(0, "x"), parameter(5, "init", "i64"), read_value(1, "opset6", kVar6, true, "I64"),
       two_in_one_out(2, "Add", "sum"), assign(3, "acc"), result(4, "sum/sink_port_0")},
      {{5, 0, 1, 0}, {1, 1, 2, 0}, {0, 0, 2, 1}, {2, 2, 3, 0}, {2, 2, 4, 0}});
  expect_refused("ov_state_init_type", xml,
                 "variable 'acc' is of type float, but its init_value (input 0) is of type int64");
}

// Without init_value, the first run's zeros need a static type and shape.
TEST(OpenVinoStateCheck, RefusesAVariableWithNoInitialValue) {
  expect_refused("ov_state_no_init",
                 test::replaced(accumulator(), R"(variable_shape="2")", R"(variable_shape="?")"),
                 "variable 'acc' has no initial value");
}

// The session keeps the main graph's variables only: a ReadValue in an If branch is refused.
TEST(OpenVinoStateCheck, RefusesAVariableInsideASubgraph) {
  test::GraphBuilder then_g("then"), else_g("else"), g;
  then_g.node("ReadValue", {"x"}, {"r"}).set_domain("org.openvinotoolkit");
  test::set_string(then_g.graph_node_last(), "variable_id", "v");
  then_g.output("r", ElemType::Float, {2});
  else_g.node("Identity", {"x"}, {"e"});
  else_g.output("e", ElemType::Float, {2});
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2});
  onnxpb::NodeProto& n = g.node("If", {"c"}, {"y"});
  test::set_graph(n, "then_branch", then_g);
  test::set_graph(n, "else_branch", else_g);
  g.output("y", ElemType::Float, {2});
  onnxpb::ModelProto proto = test::make_model(g);
  onnxpb::OperatorSetIdProto* ov = proto.add_opset_import();
  ov->set_domain("org.openvinotoolkit");
  ov->set_version(1);
  Model m = Model::load(test::save_model(proto, test::scratch_dir("ov_state_nested"), "m.onnx"));
  std::string errors;
  for (const Diagnostic& d : check_model(m))
    if (d.error) errors += d.message + "\n";
  EXPECT_NE(errors.find("ReadValue of variable 'v' inside a subgraph"), std::string::npos)
      << errors;
}

}  // namespace
}  // namespace bough
