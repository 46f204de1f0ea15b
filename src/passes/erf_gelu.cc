// erf-gelu: the exact Gelu as exporters write it, y = x · 0.5 · (1 + erf(x / √2)), becomes one
// com.microsoft Gelu (ONNX Runtime's contrib operator, which its own Gelu fusion writes): one
// pass over the values instead of five. Both orders PyTorch exports are matched,
// Mul(Mul(x, 1 + erf), 0.5) and Mul(Mul(x, 0.5), 1 + erf), with x / √2 as a Div by √2 or a
// Mul by 1/√2 and every operand order of the commutative nodes. The constants must be
// one-element float constants within 1e-6 relative of their values, x a float tensor, and
// every intermediate value read only by the next node of the chain. Skipped when the model
// imports com.microsoft at a version other than 1.
#include <cmath>
#include <optional>
#include <unordered_set>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

constexpr const char* kDomain = "com.microsoft";

bool is_constant(const ir::Edge* e, double value) {
  const Tensor* t = constant_value(e);
  if (!t || t->type() != ElemType::Float || t->numel() != 1) return false;
  return std::abs(static_cast<double>(t->data<float>()[0]) - value) <= 1e-6 * std::abs(value);
}

// The node of `op_type` (with `inputs` inputs) in `g` producing `e`, when `reader` alone reads `e`.
ir::Node* sole_producer(const ir::Graph& g, const ir::Edge* e, const char* op_type, size_t inputs,
                        const ir::Node& reader) {
  ir::Node* n = e->origin == ir::Edge::Origin::NodeOutput ? e->producer : nullptr;
  if (!n || n->graph != &g || !is_op(*n, op_type, inputs) || !read_only_by(g, e, reader))
    return nullptr;
  return n;
}

// A chain being matched: the nodes that become the Gelu, last one first.
struct Chain {
  ir::Edge* x = nullptr;
  std::vector<ir::Node*> nodes;
};

// x when `e` is 1 + erf(x / √2) read only by `reader`; its nodes join `chain`.
ir::Edge* erf_argument(const ir::Graph& g, const ir::Edge* e, const ir::Node& reader,
                       Chain& chain) {
  ir::Node* add = sole_producer(g, e, "Add", 2, reader);
  if (!add) return nullptr;
  for (int side = 0; side < 2; ++side) {
    if (!is_constant(add->inputs[1 - side], 1.0)) continue;
    ir::Node* erf = sole_producer(g, add->inputs[side], "Erf", 1, *add);
    if (!erf) continue;
    ir::Edge* scaled = erf->inputs[0];
    ir::Node* div = sole_producer(g, scaled, "Div", 2, *erf);
    ir::Node* mul = sole_producer(g, scaled, "Mul", 2, *erf);
    ir::Edge* x = nullptr;
    ir::Node* scale = nullptr;
    if (div && is_constant(div->inputs[1], std::sqrt(2.0))) {
      x = div->inputs[0];
      scale = div;
    } else if (mul) {
      for (int m = 0; m < 2 && !x; ++m)
        if (is_constant(mul->inputs[1 - m], std::sqrt(0.5))) x = mul->inputs[m];
      scale = mul;
    }
    if (!x) continue;
    chain.nodes.insert(chain.nodes.end(), {add, erf, scale});
    return x;
  }
  return nullptr;
}

// The chain ending in the Mul `last`, when it computes x · 0.5 · (1 + erf(x / √2)).
std::optional<Chain> gelu_chain(const ir::Graph& g, ir::Node& last) {
  if (!is_op(last, "Mul", 2)) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    ir::Edge* a = last.inputs[side];
    ir::Edge* b = last.inputs[1 - side];
    ir::Node* inner = sole_producer(g, a, "Mul", 2, last);
    if (!inner) continue;
    for (int k = 0; k < 2; ++k) {
      ir::Edge* u = inner->inputs[k];
      ir::Edge* v = inner->inputs[1 - k];
      Chain chain{nullptr, {&last, inner}};
      // Mul(Mul(x, 1 + erf), 0.5), or Mul(Mul(x, 0.5), 1 + erf).
      ir::Edge* x = is_constant(b, 0.5)   ? erf_argument(g, v, *inner, chain)
                    : is_constant(v, 0.5) ? erf_argument(g, b, last, chain)
                                          : nullptr;
      if (x && x == u) {
        chain.x = x;
        return chain;
      }
    }
  }
  return std::nullopt;
}

int fuse_in(ir::Graph& g, const infer::Inferred& types) {
  std::unordered_set<const ir::Node*> fused;
  int changes = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    ir::Node& last = *g.nodes[i];
    if (fused.count(&last)) continue;
    std::optional<Chain> chain = gelu_chain(g, last);
    if (!chain || !float_shape(types, chain->x)) continue;
    ir::Node* gelu = insert_node(g, i, "Gelu", last.name);
    gelu->domain = kDomain;
    gelu->inputs = {chain->x};
    set_output(*gelu, 0, last.outputs[0]);
    fused.insert(chain->nodes.begin(), chain->nodes.end());
    ++i;  // past `last`, now one further on
    ++changes;
  }
  erase_nodes(g, fused);
  return changes;
}

}  // namespace

int erf_gelu(ir::Model& model) {
  const int64_t imported = model.opset(kDomain);
  if (imported != 0 && imported != 1) return 0;
  check::Diagnostics ignored;  // the model was checked before any pass runs
  const infer::Inferred types = infer::infer_model(model, ignored);
  int fused = 0;
  for_each_graph(model, [&](ir::Graph& g) { fused += fuse_in(g, types); });
  if (fused > 0 && imported == 0) model.opset_imports.emplace_back(kDomain, 1);
  return fused;
}

}  // namespace bough::passes
