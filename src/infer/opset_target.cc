#include "infer/opset_target.h"

#include <algorithm>
#include <string>
#include <vector>

#include "bough/error.h"
#include "check/opsets.h"
#include "infer/validate.h"
#include "ops/registry.h"

namespace bough::infer {

namespace {

// Operator versions that changed what a node means while its inputs, outputs and
// attributes stayed the same, so that the checker cannot tell: a node whose version in
// force and version at the target lie on either side of one is refused.
struct MeaningChange {
  const char* op;
  int since;
  const char* what;
};

constexpr MeaningChange kMeaningChanges[] = {
    {"Add", 7, "broadcasts multidirectionally from opset 7"},
    {"Sub", 7, "broadcasts multidirectionally from opset 7"},
    {"Mul", 7, "broadcasts multidirectionally from opset 7"},
    {"Div", 7, "broadcasts multidirectionally from opset 7"},
    {"Pow", 7, "broadcasts multidirectionally from opset 7"},
    {"PRelu", 7, "broadcasts multidirectionally from opset 7"},
    {"Equal", 7, "broadcasts multidirectionally from opset 7"},
    {"Greater", 7, "broadcasts multidirectionally from opset 7"},
    {"Less", 7, "broadcasts multidirectionally from opset 7"},
    {"And", 7, "broadcasts multidirectionally from opset 7"},
    {"Or", 7, "broadcasts multidirectionally from opset 7"},
    {"Xor", 7, "broadcasts multidirectionally from opset 7"},
    {"Gemm", 7, "broadcasts C multidirectionally from opset 7"},
    {"Dropout", 7, "is the identity from opset 7 (before, it drops unless is_test is set)"},
    {"BatchNormalization", 7,
     "with Y alone is in test mode from opset 7 (before, in training unless is_test is set)"},
    {"Max", 8, "broadcasts from opset 8"},
    {"Min", 8, "broadcasts from opset 8"},
    {"Sum", 8, "broadcasts from opset 8"},
    {"Mean", 8, "broadcasts from opset 8"},
    {"Softmax", 13, "works along one axis from opset 13 (before, on the input flattened there)"},
    {"LogSoftmax", 13, "works along one axis from opset 13 (before, on the input flattened there)"},
    {"Hardmax", 13, "works along one axis from opset 13 (before, on the input flattened there)"},
    {"GridSample", 20, "renamed its modes at opset 20 (bilinear is linear, bicubic cubic)"},
};

struct Blocker {
  std::string place;
  std::string why;
};

void find_blockers(const ir::Graph& g, int64_t from, int64_t to, std::vector<Blocker>* out) {
  for (const auto& n : g.nodes) {
    for (const auto& a : n->attributes) {
      if (a.g) find_blockers(*a.g, from, to, out);
      for (const auto& sub : a.graphs) find_blockers(*sub, from, to, out);
    }
    if (!n->domain.empty() && n->domain != "ai.onnx") continue;
    const ops::OpDef* def = ops::find_op("", n->op_type);
    if (!def) continue;  // the checker reports operators bough does not know
    const std::string place = g.path() + "/" + n->label();
    if (to < def->versions.front()) {
      out->push_back(
          {place, n->op_type + " first appears in opset " + std::to_string(def->versions.front())});
      continue;
    }
    const int was = ops::since_of(*def, from), will = ops::since_of(*def, to);
    for (const MeaningChange& c : kMeaningChanges)
      if (n->op_type == c.op && (was < c.since) != (will < c.since))
        out->push_back({place, n->op_type + " " + c.what});
  }
}

std::string listed(const std::vector<Blocker>& blockers, int64_t opset) {
  std::string s = "opset " + std::to_string(opset) + " cannot express the model:";
  for (const Blocker& b : blockers) s += "\n  " + b.place + ": " + b.why;
  return s;
}

}  // namespace

void set_onnx_opset(ir::Model& model, int64_t opset) {
  const int64_t newest = check::newest_opset("");
  if (opset < 1 || opset > newest)
    fail(ErrorKind::Unsupported, model.path,
         "opset " + std::to_string(opset) + " (bough knows ai.onnx opsets 1 to " +
             std::to_string(newest) + ")");
  const int64_t from = model.opset("");
  if (from == opset) return;
  std::vector<Blocker> blockers;
  find_blockers(*model.graph, from, opset, &blockers);
  if (!blockers.empty()) fail(ErrorKind::Unsupported, model.path, listed(blockers, opset));

  // What the nodes' signatures at the new opset refuse (inputs, attributes, types), less
  // what the model breaks already.
  auto errors = [&] {
    std::vector<Blocker> found;
    const Validation v = validate(model);
    for (const check::Diagnostic& d : v.diagnostics.all())
      if (d.severity == check::Severity::Error) found.push_back({d.place, d.message});
    return found;
  };
  const std::vector<Blocker> before = errors();
  const std::vector<std::pair<std::string, int64_t>> imports = model.opset_imports;
  auto import = std::find_if(model.opset_imports.begin(), model.opset_imports.end(),
                             [](const auto& d) { return d.first.empty() || d.first == "ai.onnx"; });
  if (import == model.opset_imports.end())
    model.opset_imports.emplace_back("", opset);
  else
    import->second = opset;
  for (const Blocker& b : errors())
    if (std::none_of(before.begin(), before.end(),
                     [&](const Blocker& o) { return o.place == b.place && o.why == b.why; }))
      blockers.push_back(b);
  if (blockers.empty()) return;
  model.opset_imports = imports;
  fail(ErrorKind::Unsupported, model.path, listed(blockers, opset));
}

}  // namespace bough::infer
