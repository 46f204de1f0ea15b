// transpose-gemm: a 2-D Transpose (perm [1, 0]) of a float value read only as the B operand
// of a Gemm or a 2-D float MatMul is folded into transB: Gemm(A, Transpose(X)) becomes
// Gemm(A, X, transB = 1 - transB), and MatMul(A, Transpose(X)) a Gemm with transB = 1 (Gemm
// without C exists from opset 11). The Transpose's output must have no other reader: no
// other node, no graph output, no capture in a nested subgraph.
// Only B: the Gemm kernel packs a transposed B straight from its layout (or takes dot
// products of rows for a few rows of A), so the copy goes; measured 0.05-0.8x the time of
// Transpose + MatMul. For A it transposes a copy itself, which measured 1.0-1.1x, no gain.
// (A batched MatMul keeps its Transposes: the MatMul kernel has no transposition flag.)
#include <unordered_set>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

int64_t int_attr(const ir::Node& n, const char* name) {
  const ir::Attribute* a = n.attr(name);
  return a && a->kind == ir::Attribute::Kind::Int ? a->i : 0;
}

bool is_gemm(const ir::Node& n) {
  return n.op_type == "Gemm" && n.domain.empty() && n.inputs.size() >= 2 && n.inputs[0] &&
         n.inputs[1] && n.outputs.size() == 1 && n.outputs[0];
}

bool is_2d_float_matmul(const ir::Node& n, const infer::Inferred& types) {
  if (!is_op(n, "MatMul", 2)) return false;
  const ir::Shape* a = float_shape(types, n.inputs[0]);
  const ir::Shape* b = float_shape(types, n.inputs[1]);
  return a && b && a->dims.size() == 2 && b->dims.size() == 2;
}

int fold_in(ir::Graph& g, const infer::Inferred& types, bool matmuls) {
  std::unordered_set<const ir::Node*> folded;
  int changes = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    ir::Node* n = g.nodes[i].get();
    const bool gemm = is_gemm(*n);
    if (folded.count(n) || !(gemm || (matmuls && is_2d_float_matmul(*n, types)))) continue;
    const ir::Node* t = fusable_transpose_2d(g, types, n->inputs[1], *n);
    if (!t) continue;
    if (!gemm) {
      folded.insert(n);
      ir::Node* mm = n;
      n = insert_node(g, i, "Gemm", mm->name);
      n->inputs = mm->inputs;
      set_output(*n, 0, mm->outputs[0]);
      ++i;  // past the MatMul, now one further on
    }
    n->inputs[1] = t->inputs[0];
    set_int_attr(*n, "transB", 1 - int_attr(*n, "transB"));
    folded.insert(t);
    ++changes;
  }
  erase_nodes(g, folded);
  return changes;
}

}  // namespace

int transpose_gemm(ir::Model& model) {
  check::Diagnostics ignored;  // the model was checked before any pass runs
  const infer::Inferred types = infer::infer_model(model, ignored);
  const bool matmuls = model.opset("") >= 11;
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += fold_in(g, types, matmuls); });
  return folded;
}

}  // namespace bough::passes
