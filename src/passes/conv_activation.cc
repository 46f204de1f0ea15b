// conv-activation: a float Conv whose output only a Relu, Sigmoid, LeakyRelu or Clip reads
// becomes one com.microsoft FusedConv (ONNX Runtime's contrib operator, which it writes for
// the same fusion: the optimized model stays runnable there) with the activation in its
// `activation` and `activation_params` attributes. The Conv kernel then adds the bias and
// applies the activation to each output tile while it is in cache, instead of in two more
// passes over the output and a second output buffer. A Clip's bounds must be attributes
// (before opset 11) or initializers of this graph; the Conv's output must have no other
// reader (no other node, no graph output, no capture by a nested subgraph). Skipped when the
// model imports com.microsoft at a version other than 1.
#include <limits>

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

// The activation `n` applies to its first input, when FusedConv has it.
std::optional<Activation> activation_of(const ir::Graph& g, const ir::Node& n, int64_t opset) {
  if (!n.domain.empty() || n.outputs.size() != 1 || !n.outputs[0] || n.inputs.empty() ||
      !n.inputs[0])
    return std::nullopt;
  if ((n.op_type == "Relu" || n.op_type == "Sigmoid") && n.inputs.size() == 1)
    return Activation{n.op_type, {}};
  if (n.op_type == "LeakyRelu" && n.inputs.size() == 1)
    return Activation{n.op_type, {float_attr(n, "alpha", 0.01f)}};
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

// The Conv making `y` when only `reader` reads it and it is float.
ir::Node* fusable_conv(const Readers& readers, const ModelTypes& types, const ir::Edge* y,
                       const ir::Node& reader) {
  ir::Node* conv = y->origin == ir::Edge::Origin::NodeOutput ? y->producer : nullptr;
  if (!conv || conv->graph != &readers.graph() || conv->op_type != "Conv" ||
      !conv->domain.empty() || conv->outputs.size() != 1 || conv->inputs.size() < 2 ||
      !float_shape(types, y) || !readers.only_by(y, reader))
    return nullptr;
  return conv;
}

int fuse_in(ir::Graph& g, const Rewriting& rw, int64_t opset) {
  const Readers readers(g);
  NodeEdits edits(g);
  for (const auto& node : g.nodes) {
    ir::Node& act = *node;
    const std::optional<Activation> a = activation_of(g, act, opset);
    if (!a) continue;
    ir::Node* conv = fusable_conv(readers, rw.types, act.inputs[0], act);
    if (!conv) continue;
    ir::Node* f = edits.add_before(act, "FusedConv", conv->name.empty() ? act.name : conv->name);
    f->domain = kMicrosoftDomain;
    f->inputs = conv->inputs;
    f->attributes = std::move(conv->attributes);  // the Conv is erased below
    ir::Attribute name;
    name.name = "activation";
    name.kind = ir::Attribute::Kind::String;
    name.s = a->name;
    f->attributes.push_back(std::move(name));
    if (!a->params.empty()) {
      ir::Attribute params;
      params.name = "activation_params";
      params.kind = ir::Attribute::Kind::Floats;
      params.floats = a->params;
      f->attributes.push_back(std::move(params));
    }
    replace_producer(rw, *f, 0, act.outputs[0]);
    edits.remove(*conv);
    edits.remove(act);
  }
  return edits.apply() / 2;
}

}  // namespace

int conv_activation(ir::Model& model) {
  const int64_t opset = model.opset("");
  return fuse_into_microsoft(
      model, [opset](ir::Graph& g, const Rewriting& rw) { return fuse_in(g, rw, opset); });
}

}  // namespace bough::passes
