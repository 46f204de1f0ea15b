// gelu: the Gelu subgraphs exporters write, on a float x, become one com.microsoft node (ONNX
// Runtime's contrib operators, which it writes for the same fusions):
//   x * 0.5 * (1 + Erf(x / sqrt 2))                              -> Gelu(x)
//   x * 0.5 * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))      -> FastGelu(x)
// The product of x, 0.5 and (1 + ...) may be nested either way and its factors in any order
// (torch.nn.functional.gelu as exported: (x * (1 + erf)) * 0.5; BERT's and GPT-2's: (x * 0.5)
// * (1 + ...)); x / sqrt 2 may be x * (1 / sqrt 2), x^3 Pow(x, 3) or x * x * x. Constants are
// one-element float initializers or Constants (of the graph or captured from an enclosing
// one), equal to the formula's to float precision (1e-4 relative: exporters write sqrt 2
// and sqrt(2/pi) in float or double). Every value between x and the result must have no reader
// outside the pattern. One kernel pass instead of five to eight, and no temporaries. Skipped when
// the model imports com.microsoft at a version other than 1.
#include <algorithm>
#include <cmath>
#include <vector>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// A match under way: the graph, who reads its values, the nodes the fused node replaces,
// and the rank of x once known (a constant of a higher rank would broadcast x to it).
struct Match {
  const ir::Graph& g;
  const Readers& readers;
  std::vector<const ir::Node*> nodes;
  int x_rank = -1;
};

// The node making `e` when it is `op_type` with `inputs` inputs, read only by `reader`; it
// joins the match.
const ir::Node* producer_of(Match& m, const ir::Edge* e, std::string_view op_type, size_t inputs,
                            const ir::Node& reader) {
  const ir::Node* n = e && e->origin == ir::Edge::Origin::NodeOutput ? e->producer : nullptr;
  if (!n || n->graph != &m.g || !is_op(*n, op_type, inputs) || !m.readers.only_by(e, reader))
    return nullptr;
  m.nodes.push_back(n);
  return n;
}

// Whether `e` is a one-element float constant within 1e-4 of `value` (an initializer or a
// Constant, of the graph or captured from an enclosing one) of a rank no higher than x's:
// then broadcasting it leaves every shape of the pattern x's, as the fused node's is.
bool is_constant(const Match& m, const ir::Edge* e, double value) {
  const Tensor* t = constant_value(e);
  if (!t || t->type() != ElemType::Float || t->numel() != 1 ||
      static_cast<int>(t->rank()) > m.x_rank)
    return false;
  return std::abs(t->data<float>()[0] - value) <= 1e-4 * std::abs(value);
}

// The factors of a product of Muls rooted at `n` (a Mul), walking into Mul inputs made only
// for it, two levels deep at most (three factors nest no deeper; a long chain of Muls in a
// hostile model must not recurse without end); false past three factors.
bool collect_factors(Match& m, const ir::Node& n, std::vector<ir::Edge*>& factors, int depth = 0) {
  for (ir::Edge* in : n.inputs) {
    const ir::Node* inner = depth < 2 ? producer_of(m, in, "Mul", 2, n) : nullptr;
    if (inner) {
      if (!collect_factors(m, *inner, factors, depth + 1)) return false;
    } else {
      factors.push_back(in);
    }
    if (factors.size() > 3) return false;
  }
  return true;
}

// `e` = x * k or k * x (Mul) for the constant k, or x / (1 / k) (Div); the x.
const ir::Edge* scaled(Match& m, const ir::Edge* e, double k, const ir::Node& reader) {
  if (const ir::Node* mul = producer_of(m, e, "Mul", 2, reader)) {
    for (int side = 0; side < 2; ++side)
      if (is_constant(m, mul->inputs[1 - side], k)) return mul->inputs[side];
    return nullptr;
  }
  if (const ir::Node* div = producer_of(m, e, "Div", 2, reader))
    return is_constant(m, div->inputs[1], 1 / k) ? div->inputs[0] : nullptr;
  return nullptr;
}

// Whether `e` is x^3: Pow(x, 3), or x * (x * x) in either nesting.
bool is_cube_of(Match& m, const ir::Edge* e, const ir::Edge* x, const ir::Node& reader) {
  const size_t mark = m.nodes.size();
  if (const ir::Node* pow = producer_of(m, e, "Pow", 2, reader))
    return pow->inputs[0] == x && is_constant(m, pow->inputs[1], 3);
  m.nodes.resize(mark);
  const ir::Node* outer = producer_of(m, e, "Mul", 2, reader);
  if (!outer) return false;
  for (int side = 0; side < 2; ++side) {
    if (outer->inputs[side] != x) continue;
    const ir::Node* square = producer_of(m, outer->inputs[1 - side], "Mul", 2, *outer);
    if (square && square->inputs[0] == x && square->inputs[1] == x) return true;
  }
  return false;
}

// Whether t (the argument of `1 + t`) is Erf(x / sqrt 2) ("Gelu") or
// Tanh(sqrt(2/pi) (x + 0.044715 x^3)) ("FastGelu") of x; the op it fuses into, or null.
const char* gelu_kind(Match& m, const ir::Edge* t, const ir::Edge* x, const ir::Node& add) {
  const size_t mark = m.nodes.size();
  if (const ir::Node* erf = producer_of(m, t, "Erf", 1, add))
    return scaled(m, erf->inputs[0], 1 / std::sqrt(2.0), *erf) == x ? "Gelu" : nullptr;
  m.nodes.resize(mark);
  const ir::Node* tanh = producer_of(m, t, "Tanh", 1, add);
  if (!tanh) return nullptr;
  const ir::Edge* inner = scaled(m, tanh->inputs[0], std::sqrt(2.0 / M_PI), *tanh);
  const ir::Node* sum = inner ? producer_of(m, inner, "Add", 2, *m.nodes.back()) : nullptr;
  if (!sum) return nullptr;
  for (int side = 0; side < 2; ++side) {
    if (sum->inputs[side] != x) continue;
    const size_t at = m.nodes.size();
    const ir::Edge* cube = scaled(m, sum->inputs[1 - side], 0.044715, *sum);
    if (cube && is_cube_of(m, cube, x, *m.nodes.back())) return "FastGelu";
    m.nodes.resize(at);
  }
  return nullptr;
}

// The fused op for the product rooted at `root` (a Mul), with its x; null when it is no
// Gelu.
const char* match_gelu(Match& m, const ModelTypes& types, const ir::Node& root, ir::Edge*& x) {
  std::vector<ir::Edge*> factors;
  if (!collect_factors(m, root, factors) || factors.size() != 3) return nullptr;
  // One factor is 0.5, one is 1 + t, and the third is x.
  for (size_t half = 0; half < 3; ++half) {
    for (size_t one_plus = 0; one_plus < 3; ++one_plus) {
      if (one_plus == half) continue;
      x = factors[3 - half - one_plus];
      const ir::Shape* x_shape = float_shape(types, x);
      if (!x_shape) continue;
      m.x_rank = static_cast<int>(x_shape->dims.size());
      if (!is_constant(m, factors[half], 0.5)) continue;
      const size_t mark = m.nodes.size();
      const ir::Node* reader = nullptr;  // the Mul reading factor `one_plus`
      for (const ir::Node* n : m.nodes)
        for (const ir::Edge* in : n->inputs) reader = in == factors[one_plus] ? n : reader;
      if (!reader) reader = &root;
      const ir::Node* add = producer_of(m, factors[one_plus], "Add", 2, *reader);
      for (int side = 0; add && side < 2; ++side) {
        if (!is_constant(m, add->inputs[1 - side], 1)) continue;
        if (const char* kind = gelu_kind(m, add->inputs[side], x, *add)) return kind;
      }
      m.nodes.resize(mark);
    }
  }
  return nullptr;
}

int fuse_in(ir::Graph& g, const Rewriting& rw) {
  const Readers readers(g);
  NodeEdits edits(g);
  int changes = 0;
  for (const auto& node : g.nodes) {
    ir::Node& root = *node;
    if (edits.removed(root) || !is_op(root, "Mul", 2)) continue;
    Match m{g, readers, {&root}};
    ir::Edge* x = nullptr;
    const char* kind = match_gelu(m, rw.types, root, x);
    if (!kind || std::any_of(m.nodes.begin(), m.nodes.end(),
                             [&](const ir::Node* n) { return edits.removed(*n); }))
      continue;
    ir::Node* f = edits.add_before(root, kind, root.name);
    f->domain = kMicrosoftDomain;
    f->inputs = {x};
    replace_producer(rw, *f, 0, root.outputs[0]);
    for (const ir::Node* n : m.nodes) edits.remove(*n);
    ++changes;
  }
  edits.apply();
  return changes;
}

}  // namespace

int gelu(ir::Model& model) { return fuse_into_microsoft(model, fuse_in); }

}  // namespace bough::passes
