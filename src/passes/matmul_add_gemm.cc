// matmul-add-gemm: Z = Add(MatMul(A, B), C) (either order of Add's inputs) becomes
// Z = Gemm(A, B, C) when the product can be a Gemm and adding C cannot change its shape:
// A and B float and 2-D (so the product is M x N), C a float tensor whose every dim is
// known, of rank <= 2, its last dim 1 or N and its first dim 1 when it has two (C then
// broadcasts to M x N unidirectionally, as Gemm's C must). Gemm with alpha = beta = 1 adds
// exactly what Add adds (float addition commutes). Gemm takes a broadcast C without the
// legacy `broadcast` attribute from opset 7 on.
// matmul-add-bias: the same for an A of rank 3 or more (the product's leading dims A's,
// known or not) into a com.microsoft FusedMatMul(A, B, C) with bough's own third input, C of
// rank at most A's with every dim but the last 1. Both kernels add such a C in the GEMM's
// store, after the whole sum, so the result is the MatMul's then the Add's, bit for bit.
// The MatMul's output must have no other reader: no other node, no graph output, no capture
// in a nested subgraph.
#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// What the MatMul and its Add become.
enum class Target { gemm, fused_matmul };

// Whether C broadcasts as one row onto a product of rank `rank` whose last dim is n.
bool is_bias_of(const ir::Shape& c, const ir::Dim& n, size_t rank) {
  if (c.dims.size() > rank) return false;
  for (const ir::Dim& d : c.dims)
    if (!d.is_known()) return false;
  for (size_t i = 0; i + 1 < c.dims.size(); ++i)
    if (c.dims[i].value != 1) return false;
  return c.dims.empty() || c.dims.back().value == 1 || c.dims.back() == n;
}

// The MatMul whose output `y` is, when Add(y, c) may become `target`.
const ir::Node* fusable_matmul(const Readers& readers, const ModelTypes& types, const ir::Node& add,
                               const ir::Edge* y, const ir::Edge* c, Target target) {
  const ir::Node* mm = y->origin == ir::Edge::Origin::NodeOutput ? y->producer : nullptr;
  if (!mm || mm->graph != &readers.graph() || !is_op(*mm, "MatMul", 2) || !readers.only_by(y, add))
    return nullptr;
  const ir::Shape* a = float_shape(types, mm->inputs[0]);
  const ir::Shape* b = float_shape(types, mm->inputs[1]);
  const ir::Shape* bias = float_shape(types, c);
  if (!a || !b || !bias || b->dims.size() != 2 || !b->dims[1].is_known()) return nullptr;
  const size_t rank = a->dims.size();
  if (target == Target::gemm ? rank != 2 : rank < 3) return nullptr;
  return is_bias_of(*bias, b->dims[1], rank) ? mm : nullptr;
}

int fuse_in(ir::Graph& g, const Rewriting& rw, Target target) {
  const Readers readers(g);
  NodeEdits edits(g);
  for (const auto& node : g.nodes) {
    ir::Node& add = *node;
    if (!is_op(add, "Add", 2)) continue;
    for (int side = 0; side < 2; ++side) {
      ir::Edge* c = add.inputs[1 - side];
      const ir::Node* mm = fusable_matmul(readers, rw.types, add, add.inputs[side], c, target);
      if (!mm) continue;
      ir::Node* fused = edits.add_before(add, target == Target::gemm ? "Gemm" : "FusedMatMul",
                                         mm->name.empty() ? add.name : mm->name);
      if (target == Target::fused_matmul) fused->domain = kMicrosoftDomain;
      fused->inputs = {mm->inputs[0], mm->inputs[1], c};
      replace_producer(rw, *fused, 0, add.outputs[0]);
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
  for_each_graph(model, [&](ir::Graph& g) { fused += fuse_in(g, rw, Target::gemm); });
  return fused;
}

int matmul_add_bias(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // an Add that broadcasts
  return fuse_into_microsoft(model, [](ir::Graph& g, const Rewriting& rw) {
    return fuse_in(g, rw, Target::fused_matmul);
  });
}

}  // namespace bough::passes
