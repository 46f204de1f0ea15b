// conv-activation: a float Conv whose output only an activation reads becomes one
// com.microsoft FusedConv (ONNX Runtime's contrib operator, which it writes for the same
// fusion) with the activation in its `activation` and `activation_params` attributes: Relu,
// Sigmoid, LeakyRelu, Clip and HardSigmoid (which ONNX Runtime's FusedConv runs too), and
// HardSwish, as the operator or as x * Clip(x + 3, 0, 6) / 6 (Add, Clip, Mul, Div, as
// exporters write it before opset 14: activation ClipHardSwish, which computes it in that
// order), which only bough runs. The Conv kernel then adds the bias and applies the
// activation to each output tile while it is in cache, instead of in more passes over the
// output and more output buffers. A Clip's bounds must be attributes (before opset 11) or
// initializers of this graph; the HardSwish motif's constants must be one-element float
// constants that broadcast without changing the Conv output's shape, equal to 3, 0, 6 and 6.
// The Conv's output must have no other reader (no other node, no graph output, no capture
// by a nested subgraph; in the motif, the Add and the Mul, and each inner value only the next
// node). Then a Mul by a one-element float constant and an Add of one (either, or both in that
// order, as PaddleOCR's learnable affine follows each activation) fuse too, when the value
// before each has no other reader and the constant broadcasts without changing the shape:
// FusedConv's `affine` attribute (bough's own), computed after the activation with the same
// two roundings. Skipped when the model imports com.microsoft at a version other than 1.
#include <limits>
#include <optional>
#include <vector>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

struct Activation {
  std::string name;
  std::vector<float> params;
};

// A Clip bound: the value of input i (an omitted one is `fallback`); false when it is not
// a one-element float initializer of `g`.
bool clip_bound(const ir::Graph& g, const ir::Node& clip, size_t i, float fallback, float& out) {
  out = fallback;
  if (clip.inputs.size() <= i || !clip.inputs[i]) return true;
  const ir::Edge* e = clip.inputs[i];
  if (e->origin != ir::Edge::Origin::Initializer || e->graph != &g || !e->data ||
      e->data->type() != ElemType::Float || e->data->numel() != 1)
    return false;
  out = e->data->data<float>()[0];
  return true;
}

float float_attr(const ir::Node& n, const char* name, float fallback) {
  const ir::Attribute* a = n.attr(name);
  return a && a->kind == ir::Attribute::Kind::Float ? a->f : fallback;
}

// The activation `n` applies to its first input, when FusedConv has it as one node.
std::optional<Activation> activation_of(const ir::Graph& g, const ir::Node& n, int64_t opset) {
  if (!n.domain.empty() || n.outputs.size() != 1 || !n.outputs[0] || n.inputs.empty() ||
      !n.inputs[0])
    return std::nullopt;
  if ((n.op_type == "Relu" || n.op_type == "Sigmoid" || n.op_type == "HardSwish") &&
      n.inputs.size() == 1)
    return Activation{n.op_type, {}};
  if (n.op_type == "LeakyRelu" && n.inputs.size() == 1)
    return Activation{n.op_type, {float_attr(n, "alpha", 0.01f)}};
  if (n.op_type == "HardSigmoid" && n.inputs.size() == 1)
    return Activation{n.op_type, {float_attr(n, "alpha", 0.2f), float_attr(n, "beta", 0.5f)}};
  if (n.op_type != "Clip") return std::nullopt;
  const float lowest = std::numeric_limits<float>::lowest(),
              highest = std::numeric_limits<float>::max();
  if (opset < 11) {
    if (n.inputs.size() != 1) return std::nullopt;
    return Activation{"Clip", {float_attr(n, "min", lowest), float_attr(n, "max", highest)}};
  }
  float lo = 0, hi = 0;
  if (!clip_bound(g, n, 1, lowest, lo) || !clip_bound(g, n, 2, highest, hi)) return std::nullopt;
  return Activation{"Clip", {lo, hi}};
}

// The Conv making `y` when it is a float tensor; its output rank in `rank`.
ir::Node* float_conv(const Readers& readers, const ModelTypes& types, const ir::Edge* y,
                     size_t& rank) {
  ir::Node* conv = y && y->origin == ir::Edge::Origin::NodeOutput ? y->producer : nullptr;
  if (!conv || conv->graph != &readers.graph() || conv->op_type != "Conv" ||
      !conv->domain.empty() || conv->outputs.size() != 1 || conv->inputs.size() < 2)
    return nullptr;
  const ir::Shape* shape = float_shape(types, y);
  if (!shape) return nullptr;
  rank = shape->dims.size();
  return conv;
}

// The node of the readers' graph making `e` when it is `op_type` with two inputs and one
// output, read only by `reader`.
ir::Node* only_producer(const Readers& readers, const ir::Edge* e, const char* op_type,
                        const ir::Node& reader) {
  ir::Node* p = e && e->origin == ir::Edge::Origin::NodeOutput ? e->producer : nullptr;
  return p && p->graph == &readers.graph() && is_op(*p, op_type, 2) && readers.only_by(e, reader)
             ? p
             : nullptr;
}

// The value of `e` when it is a one-element float constant that broadcasts against a value
// of rank `rank` without changing its shape.
std::optional<float> scalar_of(const ir::Edge* e, size_t rank) {
  const Tensor* t = e ? constant_value(e) : nullptr;
  if (!t || t->type() != ElemType::Float || t->numel() != 1 || t->rank() > rank)
    return std::nullopt;
  return t->data<float>()[0];
}

// Whether `e` is a one-element float constant equal to `want` that broadcasts against a value
// of rank `rank` without changing its shape.
bool scalar_constant(const ir::Edge* e, float want, size_t rank) {
  const std::optional<float> v = scalar_of(e, rank);
  return v && *v == want;
}

// A match: the Conv, the activation, and the nodes it replaces besides the Conv, the last
// one making the fused node's output.
struct Match {
  ir::Node* conv = nullptr;
  size_t rank = 0;  // of the Conv's output
  Activation activation;
  std::vector<ir::Node*> nodes;
  std::optional<std::pair<float, float>> affine;  // scale, shift
};

// The node `op_type` (two inputs, one output) of the readers' graph that alone reads `y`,
// with a one-element float constant of rank at most `rank` as its other input: that
// constant; the node in `node`.
std::optional<float> scalar_step(const Readers& readers, const ir::Edge* y, const char* op_type,
                                 size_t rank, ir::Node*& node) {
  ir::Node* reader = readers.only_reader(y);
  if (!reader || reader->graph != &readers.graph() || !reader->domain.empty() ||
      !is_op(*reader, op_type, 2) || reader->outputs.size() != 1 || !reader->outputs[0])
    return std::nullopt;
  const ir::Edge* other = reader->inputs[reader->inputs[0] == y ? 1 : 0];
  const std::optional<float> c = scalar_of(other, rank);
  if (c) node = reader;
  return c;
}

// Extends `m` with the scalar Mul, then Add, that follow its last node (see above). A missing
// Mul scales by 1, a missing Add shifts by -0 (kernels/conv_epilogue.h).
void take_affine(const Readers& readers, Match& m) {
  const size_t before = m.nodes.size();
  float scale = 1, shift = -0.0f;
  ir::Node* node = nullptr;
  if (const std::optional<float> s =
          scalar_step(readers, m.nodes.back()->outputs[0], "Mul", m.rank, node)) {
    scale = *s;
    m.nodes.push_back(node);
  }
  if (const std::optional<float> t =
          scalar_step(readers, m.nodes.back()->outputs[0], "Add", m.rank, node)) {
    shift = *t;
    m.nodes.push_back(node);
  }
  if (m.nodes.size() > before) m.affine = std::pair{scale, shift};
}

// The HardSwish motif ending at `div`: Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6), x a float Conv's
// output that only the Add and the Mul read (either operand order of the Add and the Mul).
std::optional<Match> clip_hard_swish(const Readers& readers, const ModelTypes& types, ir::Node& div,
                                     int64_t opset) {
  if (!is_op(div, "Div", 2)) return std::nullopt;
  ir::Node* mul = only_producer(readers, div.inputs[0], "Mul", div);
  if (!mul) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    ir::Edge* x = mul->inputs[static_cast<size_t>(i)];
    const ir::Edge* clipped = mul->inputs[static_cast<size_t>(1 - i)];
    ir::Node* clip = clipped->origin == ir::Edge::Origin::NodeOutput ? clipped->producer : nullptr;
    if (!clip || clip->graph != &readers.graph() || !readers.only_by(clipped, *mul)) continue;
    const std::optional<Activation> bounds = activation_of(readers.graph(), *clip, opset);
    if (!bounds || bounds->name != "Clip" || bounds->params != std::vector<float>{0, 6}) continue;
    ir::Node* add = only_producer(readers, clip->inputs[0], "Add", *clip);
    size_t rank = 0;
    ir::Node* conv = float_conv(readers, types, x, rank);
    if (!add || !conv || !readers.read_only_as_inputs(x, 2) ||
        !scalar_constant(div.inputs[1], 6, rank))
      continue;
    const bool x_first = add->inputs[0] == x;
    if ((x_first ? add->inputs[0] : add->inputs[1]) != x ||
        !scalar_constant(add->inputs[x_first ? 1 : 0], 3, rank))
      continue;
    return Match{conv, rank, {"ClipHardSwish", {}}, {add, clip, mul, &div}, std::nullopt};
  }
  return std::nullopt;
}

// What fuses into a Conv ending at `n`: one activation node, or the HardSwish motif.
std::optional<Match> match_at(const Readers& readers, const ModelTypes& types, ir::Node& n,
                              int64_t opset) {
  if (std::optional<Activation> a = activation_of(readers.graph(), n, opset)) {
    size_t rank = 0;
    ir::Node* conv = float_conv(readers, types, n.inputs[0], rank);
    if (!conv || !readers.only_by(n.inputs[0], n)) return std::nullopt;
    return Match{conv, rank, std::move(*a), {&n}, std::nullopt};
  }
  return n.op_type == "Div" && n.domain.empty() ? clip_hard_swish(readers, types, n, opset)
                                                : std::nullopt;
}

int fuse_in(ir::Graph& g, const Rewriting& rw, int64_t opset) {
  const Readers readers(g);
  NodeEdits edits(g);
  int made = 0;
  for (const auto& node : g.nodes) {
    ir::Node& last = *node;
    std::optional<Match> m = match_at(readers, rw.types, last, opset);
    if (!m || edits.removed(*m->conv)) continue;
    take_affine(readers, *m);
    ir::Node* conv = m->conv;
    ir::Node* f = edits.add_before(last, "FusedConv", conv->name.empty() ? last.name : conv->name);
    f->domain = kMicrosoftDomain;
    f->inputs = conv->inputs;
    f->attributes = std::move(conv->attributes);  // the Conv is erased below
    ir::Attribute name;
    name.name = "activation";
    name.kind = ir::Attribute::Kind::String;
    name.s = m->activation.name;
    f->attributes.push_back(std::move(name));
    if (!m->activation.params.empty()) {
      ir::Attribute params;
      params.name = "activation_params";
      params.kind = ir::Attribute::Kind::Floats;
      params.floats = m->activation.params;
      f->attributes.push_back(std::move(params));
    }
    if (m->affine) {
      ir::Attribute affine;
      affine.name = "affine";
      affine.kind = ir::Attribute::Kind::Floats;
      affine.floats = {m->affine->first, m->affine->second};
      f->attributes.push_back(std::move(affine));
    }
    replace_producer(rw, *f, 0, m->nodes.back()->outputs[0]);
    edits.remove(*conv);
    for (ir::Node* n : m->nodes) edits.remove(*n);
    ++made;
  }
  edits.apply();
  return made;
}

}  // namespace

int conv_activation(ir::Model& model) {
  const int64_t opset = model.opset("");
  return fuse_into_microsoft(
      model, [opset](ir::Graph& g, const Rewriting& rw) { return fuse_in(g, rw, opset); });
}

}  // namespace bough::passes
