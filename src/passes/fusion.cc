#include "passes/fusion.h"

#include <algorithm>

#include "bough/error.h"
#include "check/control_flow_rules.h"
#include "passes/rewrite.h"

namespace bough::passes {

bool is_op(const ir::Node& n, std::string_view op_type, size_t inputs) {
  return n.op_type == op_type && n.domain.empty() && n.inputs.size() == inputs &&
         n.outputs.size() == 1 && n.outputs[0] &&
         std::all_of(n.inputs.begin(), n.inputs.end(), [](const ir::Edge* e) { return e; });
}

const infer::Inferred& ModelTypes::all() const {
  if (!inferred_) {
    check::Diagnostics ignored;  // the model was checked before any pass runs
    inferred_ = infer::infer_model(model_, ignored);
  }
  return *inferred_;
}

int rank_of(const ModelTypes& types, const ir::Edge* e) {
  const ir::Type& t = types.all().type_of(e);
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return -1;
  return static_cast<int>(t.shape.dims.size());
}

const ir::Shape* float_shape(const ModelTypes& types, const ir::Edge* e) {
  const ir::Type& t = types.all().type_of(e);
  if (t.kind != ir::Type::Kind::Tensor || t.elem != ElemType::Float || !t.shape.rank_known)
    return nullptr;
  return &t.shape;
}

const ir::Node* fusable_transpose_2d(const Readers& readers, const ModelTypes& types,
                                     const ir::Edge* e, const ir::Node& reader) {
  const ir::Node* t = e->origin == ir::Edge::Origin::NodeOutput ? e->producer : nullptr;
  if (!t || t->graph != &readers.graph() || !is_op(*t, "Transpose", 1)) return nullptr;
  const ir::Shape* x = float_shape(types, t->inputs[0]);
  if (!x || x->dims.size() != 2) return nullptr;
  if (const ir::Attribute* perm = t->attr("perm")) {
    if (perm->kind != ir::Attribute::Kind::Ints || !perm->ref_attr_name.empty() ||
        perm->ints != std::vector<int64_t>{1, 0})
      return nullptr;
  }
  return readers.only_by(e, reader) ? t : nullptr;
}

int fuse_into_microsoft(ir::Model& model,
                        const std::function<int(ir::Graph&, const Rewriting&)>& fuse) {
  const int64_t imported = model.opset(kMicrosoftDomain);
  if (imported != 0 && imported != 1) return 0;
  // The import first: the fused nodes are inferred at that version as they are made.
  if (imported == 0) model.opset_imports.emplace_back(kMicrosoftDomain, 1);
  const ModelTypes types(model);
  const Rewriting rw{model, types};
  int fused = 0;
  for_each_graph(model, [&](ir::Graph& g) { fused += fuse(g, rw); });
  if (fused == 0 && imported == 0) model.opset_imports.pop_back();
  return fused;
}

void replace_producer(const Rewriting& rw, ir::Node& n, size_t index, ir::Edge* e) {
  rw.types.all();  // inferred (if not yet) while `e` has its old producer
  if (n.outputs.size() <= index) n.outputs.resize(index + 1, nullptr);
  n.outputs[index] = e;
  e->producer = &n;
  e->producer_index = static_cast<int>(index);
  require_types_kept(rw, n);
}

void require_types_kept(const Rewriting& rw, const ir::Node& n) {
  check::Diagnostics problems;
  const std::vector<ir::Type> computed = infer::infer_node(rw.model, n, rw.types.all(), problems);
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    const ir::Edge* e = n.outputs[o];
    if (!e) continue;
    const ir::Type& was = rw.types.all().type_of(e);
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
