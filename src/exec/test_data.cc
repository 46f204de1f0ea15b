#include "exec/test_data.h"

#include <algorithm>
#include <optional>
#include <set>

#include "bough/session.h"
#include "exec/test_data_legacy.h"
#include "exec/test_data_random.h"
#include "formats/onnx/tensor_proto.h"
#include "ir/graph.h"
#include "util/compare.h"

namespace bough {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> sorted_entries(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  // input_10 after input_9: order by the number after the prefix when there is one.
  std::sort(out.begin(), out.end(), [&](const fs::path& a, const fs::path& b) {
    std::string x = a.filename().string().substr(prefix.size());
    std::string y = b.filename().string().substr(prefix.size());
    long nx = std::strtol(x.c_str(), nullptr, 10), ny = std::strtol(y.c_str(), nullptr, 10);
    return nx != ny ? nx < ny : x < y;
  });
  return out;
}

onnx::ProtoKind kind_of(const ir::Type& t) {
  if (t.kind == ir::Type::Kind::Sequence) return onnx::ProtoKind::Sequence;
  if (t.kind == ir::Type::Kind::Optional) return onnx::ProtoKind::Optional;
  return onnx::ProtoKind::Tensor;
}

// Tests whose expected outputs need a looser bound than the backend default: the DFT
// references were computed in float32, so outputs that are exactly zero come out as
// rounding noise of about 1e-7 times the signal's magnitude.
Tolerance tolerance_for(const std::string& name) {
  if (name.rfind("test_dft", 0) == 0 || name.rfind("test_stft", 0) == 0)
    return Tolerance{1e-3, 1e-5};
  return Tolerance{};
}

// The seeds random nodes without one get in the runner (any fixed value serves).
constexpr uint64_t kRunnerSeed = 20261124;

}  // namespace

std::string check_test_data(const Model& given, const fs::path& dir, const SessionOptions& options,
                            std::string* note) {
  const std::string name = dir.filename().string();
  // A test with nothing to compare must not pass.
  const std::vector<fs::path> sets = sorted_entries(dir, "test_data_set_");
  if (sets.empty()) return "no test data sets (test_data_set_*)";
  const bool random = holds_random_op(given.ir());
  const std::string rule = std::string("checked by distribution: ") + kDistributionRule;
  if (random && note) *note = rule;
  const Model model = random ? Model(with_fixed_seeds(given.ir(), kRunnerSeed)) : given;
  const ir::Graph& g = *model.ir().graph;
  std::vector<const ir::Edge*> inputs;
  for (const ir::Edge* v : g.inputs)
    if (!v->data) inputs.push_back(v);
  // Made at the first data set, once its files have said whether the compatibility rules
  // of exec/test_data_legacy.h drop a declared input shape.
  std::optional<Session> session;
  for (const fs::path& set : sets) {
    NamedValues feed;
    auto input_files = sorted_entries(set, "input_");
    // One file per input without an initializer, in order. Feeding fewer would leave the
    // session to complain about a missing input; extra files would be silently ignored.
    if (input_files.size() != inputs.size())
      return set.filename().string() + ": " + std::to_string(input_files.size()) +
             " input files, the model has " + std::to_string(inputs.size()) + " inputs";
    std::set<std::string> contradicted;
    bool bits = false;
    for (size_t i = 0; i < input_files.size(); ++i) {
      const ir::Type& declared = inputs[i]->type;
      Value v = onnx::read_value_file(input_files[i].string(), kind_of(declared));
      if (is_bfloat16_bits(v, declared)) {
        v = bfloat16_from_bits(v);
        bits = true;
      }
      if (v.is_tensor() && contradicts_declared_shape(v.tensor(), declared))
        contradicted.insert(inputs[i]->name);
      feed.emplace_back(inputs[i]->name, std::move(v));
    }
    if (!session)
      session.emplace(bits && !contradicted.empty()
                          ? Model(without_input_shapes(model.ir(), contradicted))
                          : model,
                      options);
    NamedValues got = session->run(feed);
    auto output_files = sorted_entries(set, "output_");
    if (output_files.size() != got.size())
      return set.filename().string() + ": the model has " + std::to_string(got.size()) +
             " outputs, the test expects " + std::to_string(output_files.size());
    for (size_t i = 0; i < got.size(); ++i) {
      const ir::Type& declared = g.outputs[i]->type;
      Value expected = onnx::read_value_file(output_files[i].string(), kind_of(declared));
      std::string diff;
      if (is_bfloat16_bits(expected, declared) && got[i].second.is_tensor())
        diff = compare_truncated_bfloat16(bfloat16_from_bits(expected).tensor(),
                                          got[i].second.tensor());
      else if (random)
        diff = compare_by_distribution(expected, got[i].second);
      else
        diff = compare_values(expected, got[i].second, tolerance_for(name));
      if (!diff.empty())
        return set.filename().string() + " output '" + got[i].first + "': " + diff +
               (random ? " (" + rule + ")" : "");
    }
  }
  return "";
}

}  // namespace bough
