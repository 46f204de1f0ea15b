#include "passes/pass_test_util.h"

#include <gtest/gtest.h>

#include <set>

#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "passes/pass.h"
#include "test_paths.h"
#include "util/files.h"

namespace bough::test {

namespace {

int count_in(const ir::Graph& g, const std::string& op_type) {
  int n = 0;
  for (const auto& node : g.nodes) {
    n += node->op_type == op_type;
    for (const auto& a : node->attributes) {
      if (a.g) n += count_in(*a.g, op_type);
      for (const auto& sub : a.graphs) n += count_in(*sub, op_type);
    }
  }
  return n;
}

// Every value a graph defines (inputs, initializers, node outputs), at any depth, for the
// check that no name is defined twice anywhere in the model (captures define nothing).
void defined_names(const ir::Graph& g, std::multiset<std::string>* out) {
  for (const ir::Edge* e : g.inputs) out->insert(e->name);
  for (const ir::Edge* e : g.initializers)
    if (e->origin == ir::Edge::Origin::Initializer) out->insert(e->name);
  for (const auto& node : g.nodes) {
    for (const ir::Edge* e : node->outputs)
      if (e) out->insert(e->name);
    for (const auto& a : node->attributes) {
      if (a.g) defined_names(*a.g, out);
      for (const auto& sub : a.graphs) defined_names(*sub, out);
    }
  }
}

}  // namespace

std::string report_line(const std::string& pass, int changes) {
  return pass + std::string(16 - pass.size() + 1, ' ') + std::to_string(changes) +
         (changes == 1 ? " change (" : " changes (");
}

std::string check_golden(const GraphBuilder& g, const std::string& pass, const std::string& report,
                         const std::string& extra, int64_t opset) {
  const std::string dir = scratch_dir("golden_" + pass);
  const std::string in = save_model(make_model(g, opset), dir, "in.onnx");
  const std::string out = dir + "/out.onnx";
  const std::string golden = source_dir() + "/tests/golden/passes/" + pass;
  std::string text;
  EXPECT_EQ(run_cli("info --no-summary " + in, &text), 0) << text;
  EXPECT_EQ(text, read_file(golden + ".before.txt"));
  EXPECT_EQ(run_cli("optimize " + in + " " + out + " --passes " + pass + " " + extra, &text), 0)
      << text;
  EXPECT_NE(text.find(report), std::string::npos) << text;
  EXPECT_EQ(run_cli("info --no-summary " + out, &text), 0) << text;
  EXPECT_EQ(text, read_file(golden + ".after.txt"));
  return out;
}

std::string save_scratch(const GraphBuilder& g, const std::string& name) {
  return save_model(make_model(g), scratch_dir(name), name + ".onnx");
}

std::string optimize_file(const std::string& path, const std::vector<std::string>& pass_names) {
  auto model = read_model_file(path);
  std::vector<const passes::Pass*> pipeline;
  for (const std::string& name : pass_names) {
    pipeline.push_back(passes::find_pass(name));
    EXPECT_NE(pipeline.back(), nullptr) << name;
  }
  if (pipeline.empty()) pipeline = passes::basic_pipeline();
  passes::run_pipeline(*model, pipeline);
  infer::Validation checked = infer::validate(*model);
  for (const auto& d : checked.diagnostics.all())
    if (d.severity == check::Severity::Error) ADD_FAILURE() << d.place << ": " << d.message;
  std::multiset<std::string> names;
  defined_names(*model->graph, &names);
  for (const std::string& name : names)
    EXPECT_EQ(names.count(name), 1u) << "'" << name << "' is defined more than once";
  std::string out = path.substr(0, path.size() - 5) + ".opt.onnx";
  onnx::write_model_file(*model, out);
  return out;
}

int count_ops(const std::string& path, const std::string& op_type) {
  return count_in(*read_model_file(path)->graph, op_type);
}

std::vector<Tensor> run_plain(const std::string& path, const NamedTensors& inputs) {
  SessionOptions plain;
  plain.optimization = Optimization::none;
  Session session(Model::load(path), plain);
  NamedValues feed;
  for (const auto& [name, t] : inputs) feed.emplace_back(name, Value(t));
  std::vector<Tensor> out;
  for (auto& [name, v] : session.run(feed)) out.push_back(v.tensor());
  return out;
}

}  // namespace bough::test
