// transpose-gemm: a 2-D Transpose (perm [1, 0]) of a float value read only as the B operand
// of a Gemm, a float MatMul with a 2-D B, or a com.microsoft FusedMatMul with a 2-D B is
// folded into transB: Gemm(A, Transpose(X)) becomes Gemm(A, X, transB = 1 - transB);
// MatMul(A, Transpose(X)) a Gemm with transB = 1 when A is 2-D (Gemm without C exists from
// opset 11). At the `all` level only (transpose-matmul), a MatMul with A not 2-D becomes
// a FusedMatMul(A, X, transB = 1) (ONNX Runtime's contrib operator, so the optimized model
// stays runnable there; skipped when the model imports com.microsoft at a version other than
// 1) and FusedMatMul(A, Transpose(X)) flips its transB: the basic level writes plain ONNX. The
// Transpose's output must have no other reader: no other node, no graph output, no capture in a
// nested subgraph. Only B: the Gemm and MatMul kernels pack a transposed B straight from its layout
// (or take dot products of rows for a few rows of A), so the copy goes; measured 0.05-0.8x the time
// of Transpose + MatMul. For A it transposes a copy itself, which measured 1.0-1.1x, no gain. (A
// MatMul with a batched B keeps its Transposes: the MatMul kernel has no transposition flag.) The
// pass runs before fold-constants: a Transpose of a constant weight folded there would be a second,
// transposed copy of the weight, held while the plan packs it.
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

// A float MatMul (or com.microsoft FusedMatMul when `fused`) whose B is 2-D and A of known
// rank.
bool is_float_matmul_2d_b(const ir::Node& n, const ModelTypes& types, bool fused) {
  if (fused ? !(n.op_type == "FusedMatMul" && n.domain == kMicrosoftDomain &&
                (n.inputs.size() == 2 || n.inputs.size() == 3) && n.inputs[0] && n.inputs[1] &&
                n.outputs.size() == 1 && n.outputs[0])
            : !is_op(n, "MatMul", 2))
    return false;
  const ir::Shape* b = float_shape(types, n.inputs[1]);
  return float_shape(types, n.inputs[0]) && b && b->dims.size() == 2;
}

// What the MatMul or FusedMatMul `n` becomes (or stays) once B's Transpose is folded.
enum class Target { gemm, fused_matmul, none };

struct Allowed {
  bool gemm_from_matmul;  // Gemm without C: opset >= 11
  bool ms_domain;         // com.microsoft not imported, or at version 1
};

Target target_of(const ir::Node& n, const ModelTypes& types, Allowed allowed) {
  if (is_gemm(n)) return Target::gemm;
  if (allowed.ms_domain && is_float_matmul_2d_b(n, types, true)) return Target::fused_matmul;
  if (!is_float_matmul_2d_b(n, types, false)) return Target::none;
  if (allowed.gemm_from_matmul && rank_of(types, n.inputs[0]) == 2) return Target::gemm;
  return allowed.ms_domain ? Target::fused_matmul : Target::none;
}

int fold_in(ir::Graph& g, const Rewriting& rw, Allowed allowed, bool& used_ms_domain) {
  const Readers readers(g);
  NodeEdits edits(g);
  int changes = 0;
  for (const auto& node : g.nodes) {
    ir::Node* n = node.get();
    const Target target = target_of(*n, rw.types, allowed);
    if (target == Target::none) continue;
    const ir::Node* t = fusable_transpose_2d(readers, rw.types, n->inputs[1], *n);
    if (!t) continue;
    used_ms_domain = used_ms_domain || target == Target::fused_matmul;
    if (n->op_type == "MatMul") {
      edits.remove(*n);
      ir::Node* mm = n;
      n = edits.add_before(*mm, target == Target::gemm ? "Gemm" : "FusedMatMul", mm->name);
      if (target == Target::fused_matmul) n->domain = kMicrosoftDomain;
      n->inputs = {mm->inputs[0], t->inputs[0]};
      set_int_attr(*n, "transB", 1);
      replace_producer(rw, *n, 0, mm->outputs[0]);
    } else {
      n->inputs[1] = t->inputs[0];
      set_int_attr(*n, "transB", 1 - int_attr(*n, "transB"));
      require_types_kept(rw, *n);
    }
    edits.remove(*t);
    ++changes;
  }
  edits.apply();
  return changes;
}

// The fold, writing com.microsoft FusedMatMuls when `ms_domain` (the `all` level) and plain
// ONNX only otherwise.
int fold(ir::Model& model, bool ms_domain) {
  const int64_t ms_imported = model.opset(kMicrosoftDomain);
  const Allowed allowed{model.opset("") >= 11, ms_domain && (ms_imported == 0 || ms_imported == 1)};
  // The import first: new FusedMatMuls are inferred at that version as they are made.
  if (allowed.ms_domain && ms_imported == 0) model.opset_imports.emplace_back(kMicrosoftDomain, 1);
  const ModelTypes types(model);
  const Rewriting rw{model, types};
  bool used_ms_domain = false;
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += fold_in(g, rw, allowed, used_ms_domain); });
  if (allowed.ms_domain && ms_imported == 0 && !used_ms_domain) model.opset_imports.pop_back();
  return folded;
}

}  // namespace

int transpose_gemm(ir::Model& model) { return fold(model, false); }
int transpose_fused_matmul(ir::Model& model) { return fold(model, true); }

}  // namespace bough::passes
