#include "passes/fusion.h"

#include <algorithm>

#include "bough/error.h"
#include "check/control_flow_rules.h"
#include "passes/rewrite.h"

namespace bough::passes {

bool read_only_by(const ir::Graph& g, const ir::Edge* e, const ir::Node& reader) {
  if (!e || is_graph_output(g, e)) return false;
  int reads = 0;
  for (const auto& n : g.nodes) {
    const auto& implicit = n->implicit_inputs;
    if (std::find(implicit.begin(), implicit.end(), e) != implicit.end()) return false;
    for (const ir::Edge* in : n->inputs) {
      if (in != e) continue;
      if (n.get() != &reader) return false;
      ++reads;
    }
  }
  return reads == 1;
}

Readers::Readers(const ir::Graph& g) {
  for (const ir::Edge* e : g.outputs) reads_[e].count += 2;
  for (const auto& n : g.nodes) {
    for (const ir::Edge* e : n->implicit_inputs) reads_[e].count += 2;
    for (const ir::Edge* e : n->inputs) {
      if (!e) continue;
      Reads& r = reads_[e];
      ++r.count;
      r.reader = n.get();
    }
  }
}

bool Readers::only_by(const ir::Edge* e, const ir::Node& reader) const {
  const auto it = reads_.find(e);
  return it != reads_.end() && it->second.count == 1 && it->second.reader == &reader;
}

bool is_op(const ir::Node& n, std::string_view op_type, size_t inputs) {
  return n.op_type == op_type && n.domain.empty() && n.inputs.size() == inputs &&
         n.outputs.size() == 1 && n.outputs[0] &&
         std::all_of(n.inputs.begin(), n.inputs.end(), [](const ir::Edge* e) { return e; });
}

int rank_of(const infer::Inferred& types, const ir::Edge* e) {
  const ir::Type& t = types.type_of(e);
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return -1;
  return static_cast<int>(t.shape.dims.size());
}

const ir::Shape* float_shape(const infer::Inferred& types, const ir::Edge* e) {
  const ir::Type& t = types.type_of(e);
  if (t.kind != ir::Type::Kind::Tensor || t.elem != ElemType::Float || !t.shape.rank_known)
    return nullptr;
  return &t.shape;
}

const ir::Node* fusable_transpose_2d(const ir::Graph& g, const infer::Inferred& types,
                                     const ir::Edge* e, const ir::Node& reader) {
  const ir::Node* t = e->origin == ir::Edge::Origin::NodeOutput ? e->producer : nullptr;
  if (!t || t->graph != &g || !is_op(*t, "Transpose", 1)) return nullptr;
  const ir::Shape* x = float_shape(types, t->inputs[0]);
  if (!x || x->dims.size() != 2) return nullptr;
  if (const ir::Attribute* perm = t->attr("perm")) {
    if (perm->kind != ir::Attribute::Kind::Ints || !perm->ref_attr_name.empty() ||
        perm->ints != std::vector<int64_t>{1, 0})
      return nullptr;
  }
  return read_only_by(g, e, reader) ? t : nullptr;
}

int fuse_into_microsoft(ir::Model& model,
                        const std::function<int(ir::Graph&, const Rewriting&)>& fuse) {
  const int64_t imported = model.opset(kMicrosoftDomain);
  if (imported != 0 && imported != 1) return 0;
  // The import first: the fused nodes are inferred at that version as they are made.
  if (imported == 0) model.opset_imports.emplace_back(kMicrosoftDomain, 1);
  check::Diagnostics ignored;  // the model was checked before any pass runs
  const infer::Inferred types = infer::infer_model(model, ignored);
  const Rewriting rw{model, types};
  int fused = 0;
  for_each_graph(model, [&](ir::Graph& g) { fused += fuse(g, rw); });
  if (fused == 0 && imported == 0) model.opset_imports.pop_back();
  return fused;
}

ir::Node* insert_node(ir::Graph& g, size_t at, const std::string& op_type,
                      const std::string& name) {
  g.new_node(op_type);
  std::unique_ptr<ir::Node> n = std::move(g.nodes.back());
  g.nodes.pop_back();
  n->name = name;
  return g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(at), std::move(n))->get();
}

void replace_producer(const Rewriting& rw, ir::Node& n, size_t index, ir::Edge* e) {
  if (n.outputs.size() <= index) n.outputs.resize(index + 1, nullptr);
  n.outputs[index] = e;
  e->producer = &n;
  e->producer_index = static_cast<int>(index);
  require_types_kept(rw, n);
}

void require_types_kept(const Rewriting& rw, const ir::Node& n) {
  check::Diagnostics problems;
  const std::vector<ir::Type> computed = infer::infer_node(rw.model, n, rw.types, problems);
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    const ir::Edge* e = n.outputs[o];
    if (!e) continue;
    const ir::Type& was = rw.types.type_of(e);
    if (!check::compatible(was, computed[o]))
      fail(ErrorKind::InvalidModel, n.graph->path() + "/" + n.label(),
           "a rewrite (a bug in bough) would make '" + e->name + "' " + ir::to_string(computed[o]) +
               " instead of " + ir::to_string(was));
  }
}

void set_int_attr(ir::Node& n, const std::string& name, int64_t value) {
  std::erase_if(n.attributes, [&](const ir::Attribute& a) { return a.name == name; });
  ir::Attribute a;
  a.name = name;
  a.kind = ir::Attribute::Kind::Int;
  a.i = value;
  n.attributes.push_back(std::move(a));
}

}  // namespace bough::passes
