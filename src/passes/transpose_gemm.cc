// transpose-gemm: a 2-D Transpose (perm [1, 0]) of a float value whose only reader is a Gemm
// or a 2-D float MatMul is folded into the Gemm's transA / transB: Gemm(Transpose(X), B)
// becomes Gemm(X, B, transA = 1 - transA), and MatMul(Transpose(X), B) a Gemm with the flag
// set (Gemm without C exists from opset 11). The Transpose's output must have no other
// reader: no other node, no graph output, no capture in a nested subgraph. (A batched
// MatMul keeps its Transpose: the MatMul kernel has no transposition flag.)
#include <unordered_set>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

constexpr const char* kFlags[] = {"transA", "transB"};

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
    const ir::Node* t[2] = {fusable_transpose_2d(g, types, n->inputs[0], *n),
                            fusable_transpose_2d(g, types, n->inputs[1], *n)};
    if (!t[0] && !t[1]) continue;
    if (!gemm) {
      folded.insert(n);
      ir::Node* mm = n;
      n = insert_node(g, i, "Gemm", mm->name);
      n->inputs = mm->inputs;
      set_output(*n, 0, mm->outputs[0]);
      ++i;  // past the MatMul, now one further on
    }
    for (int k = 0; k < 2; ++k) {
      if (!t[k]) continue;
      n->inputs[k] = t[k]->inputs[0];
      set_int_attr(*n, kFlags[k], 1 - int_attr(*n, kFlags[k]));
      folded.insert(t[k]);
      ++changes;
    }
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
