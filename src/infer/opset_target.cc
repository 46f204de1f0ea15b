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

// The IR version ONNX released with each ai.onnx opset (onnx/docs/Versioning.md), which
// exporters write with it: opsets 1-8 IR 3, 9 IR 4, 10 IR 5, 11 IR 6, 12-14 IR 7, 15-18 IR 8,
// 19-20 IR 9, 21-22 IR 10, 23-24 IR 11, 25 IR 12.
int64_t ir_version_of_opset(int64_t opset) {
  constexpr std::pair<int64_t, int64_t> kFirstOpsetOfIr[] = {
      {25, 12}, {23, 11}, {21, 10}, {19, 9}, {15, 8}, {12, 7}, {11, 6}, {10, 5}, {9, 4}};
  for (const auto& [first, ir] : kFirstOpsetOfIr)
    if (opset >= first) return ir;
  return 3;
}

// The IR version that introduced element type `t` (float8 9, 4-bit 10, float4 11, the
// rest of the 2-bit and e8m0 types 12), 3 for the older ones.
int64_t ir_version_of_type(ElemType t) {
  switch (t) {
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      return 9;
    case ElemType::UInt4:
    case ElemType::Int4:
      return 10;
    case ElemType::Float4E2M1:
      return 11;
    case ElemType::Float8E8M0:
    case ElemType::UInt2:
    case ElemType::Int2:
      return 12;
    default:
      return 3;
  }
}

void types_need(const ir::Type& t, int64_t& ir) {
  ir = std::max(ir, ir_version_of_type(t.elem));
  if (t.inner) types_need(*t.inner, ir);
}

void graph_needs(const ir::Graph& g, int64_t& ir) {
  // IR 3 lists every initializer among the graph's inputs; the writer lists only defaults.
  for (const ir::Edge* e : g.initializers)
    if (std::find(g.inputs.begin(), g.inputs.end(), e) == g.inputs.end())
      ir = std::max<int64_t>(ir, 4);
  for (const auto& e : g.edges()) {
    types_need(e->type, ir);
    if (e->data) ir = std::max(ir, ir_version_of_type(e->data->type()));
  }
  for (const auto& n : g.nodes)
    for (const ir::Attribute& a : n->attributes) {
      if (a.kind == ir::Attribute::Kind::Tensor) ir = std::max(ir, ir_version_of_type(a.t.type()));
      if (a.g) graph_needs(*a.g, ir);
      for (const auto& sub : a.graphs) graph_needs(*sub, ir);
    }
}

// The IR version to write a model at `opset` with: the opset's, or newer when the model
// needs it (its element types; initializers that are not inputs IR 4; model-local
// functions IR 8).
int64_t ir_version_for(const ir::Model& model, int64_t opset) {
  int64_t ir = ir_version_of_opset(opset);
  graph_needs(*model.graph, ir);
  if (!model.functions.empty()) ir = std::max<int64_t>(ir, 8);
  for (const auto& f : model.functions) graph_needs(*f->body, ir);
  return ir;
}

}  // namespace

void set_onnx_opset(ir::Model& model, int64_t opset) {
  const int64_t newest = check::newest_opset("");
  if (opset < 1 || opset > newest)
    fail(ErrorKind::Unsupported, model.path,
         "opset " + std::to_string(opset) + " (bough knows ai.onnx opsets 1 to " +
             std::to_string(newest) + ")");
  const int64_t from = model.opset("");
  if (from == opset) {
    model.ir_version = ir_version_for(model, opset);
    return;
  }
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
  if (blockers.empty()) {
    model.ir_version = ir_version_for(model, opset);
    return;
  }
  model.opset_imports = imports;
  fail(ErrorKind::Unsupported, model.path, listed(blockers, opset));
}

}  // namespace bough::infer
