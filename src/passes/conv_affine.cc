// conv-affine: folds what a float Conv's output goes through into the Conv's W and B, when it
// is an affine map per output channel m with constant coefficients, y -> y * s[m] + t[m]:
// - BatchNormalization in inference mode (one output, no training_mode, spatial, or 1):
//   s = scale / sqrt(var + epsilon), t = bias - mean * s;
// - Mul by a constant (s = c, t = 0) or Add of one (s = 1, t = c) whose shape broadcasts as
//   one value per channel, or one value: every dimension 1 but the channel one, which is 1
//   or M, and no more dimensions than the Conv's output (so the result keeps its shape).
// The Conv then makes the affine node's output with W'[m] = W[m] * s[m] and
// B'[m] = B[m] * s[m] + t[m] (new initializers, worked out in double); the node goes.
// Only where the Conv's output has no other reader (no node, graph output or capture), its W,
// B and the coefficients are constants (initializers or Constant nodes) and every coefficient
// and folded value is finite. A chain (Conv, Mul, Add, BatchNormalization) folds whole in
// one walk of the graph, as nodes come in topological order: the next node reads the value
// the Conv now makes. The value's type is kept; results differ from the unfolded graph's
// only by rounding, as ONNX Runtime's own Conv-BatchNormalization fusion does.
#include <cmath>
#include <optional>
#include <unordered_set>
#include <vector>

#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// y -> y * scale[m] + shift[m] for each output channel m.
struct Affine {
  std::vector<double> scale, shift;
};

// The float values of `e` when it is a constant float tensor; null otherwise.
const Tensor* float_constant(const ir::Edge* e) {
  const Tensor* t = e ? constant_value(e) : nullptr;
  return t && t->type() == ElemType::Float ? t : nullptr;
}

// The M values of a rank-1 float constant of M elements.
std::optional<std::vector<double>> per_channel_vector(const ir::Edge* e, int64_t M) {
  const Tensor* t = float_constant(e);
  if (!t || t->rank() != 1 || t->dim(0) != M) return std::nullopt;
  const float* p = t->data<float>();
  return std::vector<double>(p, p + M);
}

// The M per-channel values a constant `c` broadcasts to against a Conv output of rank `rank`
// and M channels, without changing that output's shape; nothing when it does not.
std::optional<std::vector<double>> broadcast_per_channel(const ir::Edge* e, int64_t M,
                                                         size_t rank) {
  const Tensor* t = float_constant(e);
  if (!t || t->rank() > rank || t->numel() == 0) return std::nullopt;
  const size_t lead = rank - t->rank();  // c's axis i is the output's axis lead + i
  for (size_t i = 0; i < t->rank(); ++i) {
    const bool channel_axis = lead + i == 1;
    if (t->dim(i) != 1 && !(channel_axis && t->dim(i) == M)) return std::nullopt;
  }
  const float* p = t->data<float>();
  std::vector<double> v(static_cast<size_t>(M));
  for (int64_t m = 0; m < M; ++m) v[static_cast<size_t>(m)] = t->numel() == 1 ? p[0] : p[m];
  return v;
}

float float_attr(const ir::Node& n, const char* name, float fallback) {
  const ir::Attribute* a = n.attr(name);
  return a && a->kind == ir::Attribute::Kind::Float ? a->f : fallback;
}

// Whether int attribute `name` of `n` is absent or `want`.
bool int_attr_is(const ir::Node& n, const char* name, int64_t want) {
  const ir::Attribute* a = n.attr(name);
  return !a || (a->kind == ir::Attribute::Kind::Int && a->ref_attr_name.empty() && a->i == want);
}

// The affine map `n` applies to `y` (its input that a Conv of M output channels and output
// rank `rank` makes), when it is one.
std::optional<Affine> affine_of(const ir::Node& n, const ir::Edge* y, int64_t M, size_t rank) {
  if (!n.domain.empty() || n.outputs.size() != 1 || !n.outputs[0]) return std::nullopt;
  const std::vector<double> ones(static_cast<size_t>(M), 1.0), zeros(static_cast<size_t>(M), 0.0);
  if ((n.op_type == "Mul" || n.op_type == "Add") && n.inputs.size() == 2 && n.inputs[0] &&
      n.inputs[1]) {
    const ir::Edge* c = n.inputs[0] == y ? n.inputs[1] : n.inputs[0];
    if (c == y) return std::nullopt;
    std::optional<std::vector<double>> v = broadcast_per_channel(c, M, rank);
    if (!v) return std::nullopt;
    return n.op_type == "Mul" ? Affine{std::move(*v), zeros} : Affine{ones, std::move(*v)};
  }
  if (n.op_type != "BatchNormalization" || n.inputs.size() != 5 || n.inputs[0] != y ||
      !int_attr_is(n, "training_mode", 0) || !int_attr_is(n, "spatial", 1) ||
      !int_attr_is(n, "is_test", 1))
    return std::nullopt;
  const auto scale = per_channel_vector(n.inputs[1], M), bias = per_channel_vector(n.inputs[2], M),
             mean = per_channel_vector(n.inputs[3], M), var = per_channel_vector(n.inputs[4], M);
  if (!scale || !bias || !mean || !var) return std::nullopt;
  const double epsilon = float_attr(n, "epsilon", 1e-5f);
  Affine a{std::vector<double>(static_cast<size_t>(M)),
           std::vector<double>(static_cast<size_t>(M))};
  for (size_t m = 0; m < a.scale.size(); ++m) {
    a.scale[m] = (*scale)[m] / std::sqrt((*var)[m] + epsilon);
    a.shift[m] = (*bias)[m] - (*mean)[m] * a.scale[m];
  }
  return a;
}

// The Conv making `y` when only `reader` reads y, y is a float tensor of known rank, and W (and
// B when given) are float constants of M output channels; its output rank in `rank`.
ir::Node* foldable_conv(const Readers& readers, const ModelTypes& types, const ir::Edge* y,
                        const ir::Node& reader, size_t& rank) {
  ir::Node* conv = y && y->origin == ir::Edge::Origin::NodeOutput ? y->producer : nullptr;
  if (!conv || conv->graph != &readers.graph() || conv->op_type != "Conv" ||
      !conv->domain.empty() || conv->outputs.size() != 1 || conv->inputs.size() < 2 ||
      conv->inputs.size() > 3 || !conv->inputs[0])
    return nullptr;
  const Tensor* w = float_constant(conv->inputs[1]);
  if (!w || w->rank() < 3) return nullptr;
  const bool has_b = conv->inputs.size() == 3 && conv->inputs[2];
  if (has_b && !per_channel_vector(conv->inputs[2], w->dim(0))) return nullptr;
  const ir::Shape* shape = float_shape(types, y);
  if (!shape || shape->dims.size() != w->rank() || !readers.only_by(y, reader)) return nullptr;
  rank = shape->dims.size();
  return conv;
}

bool all_finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

// W and B folded with `a`: W'[m] = W[m] * s[m], B'[m] = B[m] * s[m] + t[m]; nothing when a
// value is not finite (in float).
std::optional<std::pair<Tensor, Tensor>> folded(const Tensor& w, const ir::Edge* b,
                                                const Affine& a) {
  const int64_t M = w.dim(0), per = w.numel() / M;
  Tensor w2(ElemType::Float, w.shape()), b2(ElemType::Float, Dims{M});
  const float* src = w.data<float>();
  float* dst = w2.data<float>();
  const std::optional<std::vector<double>> bias = b ? per_channel_vector(b, M) : std::nullopt;
  for (int64_t m = 0; m < M; ++m) {
    const double s = a.scale[static_cast<size_t>(m)];
    for (int64_t i = 0; i < per; ++i) {
      const float v = static_cast<float>(src[m * per + i] * s);
      if (!std::isfinite(v)) return std::nullopt;
      dst[m * per + i] = v;
    }
    const double b0 = bias ? (*bias)[static_cast<size_t>(m)] : 0.0;
    const float v = static_cast<float>(b0 * s + a.shift[static_cast<size_t>(m)]);
    if (!std::isfinite(v)) return std::nullopt;
    b2.data<float>()[m] = v;
  }
  return std::make_pair(std::move(w2), std::move(b2));
}

int fold_in(ir::Graph& g, const ModelTypes& types, const Rewriting& rw, NameSet& names) {
  const Readers readers(g);
  NodeEdits edits(g);
  std::unordered_set<const ir::Edge*> made;  // the initializers this walk added
  int folds = 0;
  for (const auto& node : g.nodes) {
    ir::Node& n = *node;
    if (n.inputs.empty() ||
        (n.op_type != "BatchNormalization" && n.op_type != "Mul" && n.op_type != "Add"))
      continue;
    for (ir::Edge* y : n.inputs) {
      size_t rank = 0;
      ir::Node* conv = foldable_conv(readers, types, y, n, rank);
      if (!conv) continue;
      const Tensor& w = *float_constant(conv->inputs[1]);
      const std::optional<Affine> a = affine_of(n, y, w.dim(0), rank);
      if (!a || !all_finite(a->scale) || !all_finite(a->shift)) continue;
      const ir::Edge* b = conv->inputs.size() == 3 ? conv->inputs[2] : nullptr;
      std::optional<std::pair<Tensor, Tensor>> wb = folded(w, b, *a);
      if (!wb) continue;
      conv->inputs.resize(3);
      // W and B this walk made for an earlier fold of the chain (nothing else reads them) take
      // the new values; the Conv's own, which others may read, stay as they are.
      if (made.count(conv->inputs[1]) && made.count(conv->inputs[2])) {
        conv->inputs[1]->data = std::move(wb->first);
        conv->inputs[2]->data = std::move(wb->second);
      } else {
        conv->inputs[1] = add_initializer(g, names, conv->inputs[1]->name, std::move(wb->first));
        conv->inputs[2] = add_initializer(g, names, b ? b->name : conv->inputs[1]->name + "_bias",
                                          std::move(wb->second));
        made.insert(conv->inputs[1]);
        made.insert(conv->inputs[2]);
      }
      // The Conv makes the node's output; its old output, which only the node read, goes.
      ir::Edge* out = n.outputs[0];
      conv->outputs[0]->producer = nullptr;
      conv->outputs[0] = out;
      out->producer = conv;
      out->producer_index = 0;
      require_types_kept(rw, *conv);
      edits.remove(n);
      ++folds;
      break;
    }
  }
  edits.apply();
  return folds;
}

}  // namespace

int conv_affine(ir::Model& model) {
  const ModelTypes types(model);
  const Rewriting rw{model, types};
  NameSet names(model);
  int made = 0;
  for_each_graph(model, [&](ir::Graph& g) { made += fold_in(g, types, rw, names); });
  return made;
}

}  // namespace bough::passes
