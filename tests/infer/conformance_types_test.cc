// Inference over the whole ONNX backend node suite: every model bough runs passes the check,
// and the type inference gives each graph output (without help from the model's own
// declarations) agrees with the expected output file of the first test data set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "check/control_flow_rules.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/tensor_proto.h"
#include "infer/validate.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using K = ir::Type::Kind;

// How many graph outputs inference must get exactly right (element type and every dim).
// Raise it as operators gain shape functions; a drop is a regression.
constexpr int kExactFloor = 1835;

ir::Type type_of_value(const Value& v) {
  if (v.is_tensor()) {
    std::vector<ir::Dim> dims;
    for (size_t k = 0; k < v.tensor().rank(); ++k)
      dims.push_back(ir::Dim::known(v.tensor().dim(k)));
    return ir::Type::tensor(v.tensor().type(), ir::Shape::of(std::move(dims)));
  }
  if (v.is_sequence()) return ir::Type::wrap(K::Sequence, ir::Type::tensor(v.seq().elem));
  if (v.is_none()) return ir::Type::wrap(K::Optional, ir::Type{});
  return {};
}

onnx::ProtoKind hint(const ir::Type& declared) {
  if (declared.kind == K::Sequence) return onnx::ProtoKind::Sequence;
  if (declared.kind == K::Optional) return onnx::ProtoKind::Optional;
  return onnx::ProtoKind::Tensor;
}

// Whether `inferred` says nothing false of `actual`, and whether it says everything.
bool agrees(const ir::Type& inferred, const ir::Type& actual, bool* exact) {
  *exact = false;
  if (!check::kinds_agree(inferred, actual)) return false;
  if (inferred.kind != K::Tensor || actual.kind != K::Tensor) return true;
  if (!inferred.shape.rank_known) return true;
  if (inferred.shape.dims.size() != actual.shape.dims.size()) return false;
  bool all_known = inferred.elem != ElemType::Undefined;
  for (size_t k = 0; k < actual.shape.dims.size(); ++k) {
    const ir::Dim& d = inferred.shape.dims[k];
    if (d.is_known() && d.value != actual.shape.dims[k].value) return false;
    all_known = all_known && d.is_known();
  }
  *exact = all_known;
  return true;
}

// What inference gives the outputs of every backend-layout test folder in `suite`.
struct Survey {
  std::vector<std::string> failures;
  int models = 0, unsupported = 0, outputs = 0, exact = 0;
  std::map<std::string, int> inexact_ops;  // op of the node behind an output left open
};

Survey survey(const fs::path& suite) {
  Survey s;
  for (const auto& entry : fs::directory_iterator(suite)) {
    fs::path model_path = entry.path() / "model.onnx";
    fs::path data = entry.path() / "test_data_set_0";
    if (!fs::exists(model_path) || !fs::is_directory(data)) continue;
    const std::string name = entry.path().filename().string();
    std::unique_ptr<ir::Model> model = onnx::read_model_file(model_path.string());
    infer::ValidateOptions options;
    options.infer.refine_with_declarations = false;
    infer::Validation v = infer::validate(*model, options);
    bool beyond = false;
    for (const auto& d : v.diagnostics.all()) {
      if (d.severity != check::Severity::Error) continue;
      if (d.kind == ErrorKind::Unsupported)
        beyond = true;
      else
        s.failures.push_back(name + ": " + d.place + ": " + d.message);
    }
    if (beyond) {
      ++s.unsupported;
      continue;
    }
    ++s.models;
    const auto& outs = model->graph->outputs;
    for (size_t k = 0; k < outs.size(); ++k) {
      fs::path file = data / ("output_" + std::to_string(k) + ".pb");
      if (!fs::exists(file)) continue;
      ir::Type actual = type_of_value(onnx::read_value_file(file.string(), hint(outs[k]->type)));
      // An optional holding a value is read as the value itself.
      if (outs[k]->type.kind == K::Optional && actual.kind != K::Optional)
        actual = ir::Type::wrap(K::Optional, actual);
      const ir::Type& inferred = v.types.type_of(outs[k]);
      bool is_exact = false;
      ++s.outputs;
      if (!agrees(inferred, actual, &is_exact))
        s.failures.push_back(name + ": output " + std::to_string(k) + " inferred as " +
                             ir::to_string(inferred) + ", the expected file holds " +
                             ir::to_string(actual));
      if (is_exact)
        ++s.exact;
      else if (outs[k]->producer)
        ++s.inexact_ops[outs[k]->producer->op_type];
    }
  }
  return s;
}

TEST(ConformanceTypes, EveryRunnableModelChecksAndItsOutputsAreInferred) {
  const fs::path suite = test::conformance_dir();
  if (!fs::is_directory(suite)) GTEST_SKIP() << "no conformance suite at " << suite;
  const Survey s = survey(suite);
  std::printf("%d models checked (%d beyond bough), %d outputs, %d inferred exactly\n", s.models,
              s.unsupported, s.outputs, s.exact);
  std::vector<std::pair<int, std::string>> worst;
  for (const auto& [op, n] : s.inexact_ops) worst.emplace_back(n, op);
  std::sort(worst.rbegin(), worst.rend());
  std::string list;
  for (size_t i = 0; i < worst.size() && i < 40; ++i)
    list += " " + worst[i].second + "(" + std::to_string(worst[i].first) + ")";
  std::printf("outputs not inferred exactly, by operator:%s\n", list.c_str());
  for (const std::string& f : s.failures) ADD_FAILURE() << f;
  EXPECT_GE(s.exact, kExactFloor);
}

// The com.microsoft models checked against ONNX Runtime (tests/peer/make_contrib.py): all
// run, and inference gets every output's type exactly.
TEST(ConformanceTypes, ContribModelsHaveEveryOutputInferredExactly) {
  const Survey s = survey(fs::path(test::source_dir()) / "tests" / "peer" / "contrib");
  for (const std::string& f : s.failures) ADD_FAILURE() << f;
  EXPECT_EQ(s.unsupported, 0);
  EXPECT_GT(s.models, 40);
  EXPECT_EQ(s.exact, s.outputs);
  for (const auto& [op, n] : s.inexact_ops) ADD_FAILURE() << op << ": " << n << " inexact";
}

}  // namespace
}  // namespace bough
