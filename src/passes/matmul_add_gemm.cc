// matmul-add-gemm: Z = Add(MatMul(A, B), C) (either order of Add's inputs) becomes
// Z = Gemm(A, B, C) when the product can be a Gemm and adding C cannot change its shape:
// A and B float and 2-D (so the product is M x N), C a float tensor whose every dim is
// known, of rank <= 2, its last dim 1 or N and its first dim 1 when it has two (C then
// broadcasts to M x N unidirectionally, as Gemm's C must). Gemm with alpha = beta = 1 adds
// exactly what Add adds (float addition commutes). The MatMul's output must have no other
// reader: no other node, no graph output, no capture in a nested subgraph. Gemm takes a
// broadcast C without the legacy `broadcast` attribute from opset 7 on.
#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

bool is_bias_of(const ir::Shape& c, const ir::Dim& n) {
  if (c.dims.size() > 2) return false;
  for (const ir::Dim& d : c.dims)
    if (!d.is_known()) return false;
  if (c.dims.size() == 2 && c.dims[0].value != 1) return false;
  return c.dims.empty() || c.dims.back().value == 1 || c.dims.back() == n;
}

// The MatMul whose output `y` is, when Add(y, c) may become a Gemm.
const ir::Node* fusable_matmul(const Readers& readers, const ModelTypes& types, const ir::Node& add,
                               const ir::Edge* y, const ir::Edge* c) {
  const ir::Node* mm = y->origin == ir::Edge::Origin::NodeOutput ? y->producer : nullptr;
  if (!mm || mm->graph != &readers.graph() || !is_op(*mm, "MatMul", 2) || !readers.only_by(y, add))
    return nullptr;
  const ir::Shape* a = float_shape(types, mm->inputs[0]);
  const ir::Shape* b = float_shape(types, mm->inputs[1]);
  const ir::Shape* bias = float_shape(types, c);
  if (!a || !b || !bias || a->dims.size() != 2 || b->dims.size() != 2 || !b->dims[1].is_known() ||
      !is_bias_of(*bias, b->dims[1]))
    return nullptr;
  return mm;
}

int fuse_in(ir::Graph& g, const Rewriting& rw) {
  const Readers readers(g);
  NodeEdits edits(g);
  for (const auto& node : g.nodes) {
    ir::Node& add = *node;
    if (!is_op(add, "Add", 2)) continue;
    for (int side = 0; side < 2; ++side) {
      ir::Edge* c = add.inputs[1 - side];
      const ir::Node* mm = fusable_matmul(readers, rw.types, add, add.inputs[side], c);
      if (!mm) continue;
      ir::Node* gemm = edits.add_before(add, "Gemm", mm->name.empty() ? add.name : mm->name);
      gemm->inputs = {mm->inputs[0], mm->inputs[1], c};
      replace_producer(rw, *gemm, 0, add.outputs[0]);
      edits.remove(*mm);
      edits.remove(add);
      break;
    }
  }
  return edits.apply() / 2;
}

}  // namespace

int matmul_add_gemm(ir::Model& model) {
  if (model.opset("") < 7) return 0;
  const ModelTypes types(model);
  const Rewriting rw{model, types};
  int fused = 0;
  for_each_graph(model, [&](ir::Graph& g) { fused += fuse_in(g, rw); });
  return fused;
}

}  // namespace bough::passes
