// ai.onnx.ml TreeEnsemble: each row of X [N, F] walks every tree from its root: a node
// compares feature nodes_featureids[i] with nodes_splits[i] by nodes_modes[i] (LEQ, LT,
// GTE, GT, EQ, NEQ, or MEMBER of the node's NaN-delimited run of membership_values; a NaN
// feature goes the true way when nodes_missing_value_tracks_true says so) and goes to the
// true or false node, or leaf when the matching *leafs flag is set. Leaves add
// leaf_weights to target leaf_targetids, aggregated by aggregate_function (AVERAGE, SUM,
// MIN, MAX), then post_transform (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT).
// Output [N, n_targets] in X's type; computed in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "kernels/convert.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {

enum class Mode : uint8_t { Leq, Lt, Gte, Gt, Eq, Neq, Member };
enum class Aggregate { Average, Sum, Min, Max };
enum class Post { None, Softmax, Logistic, SoftmaxZero, Probit };

struct Node {
  double split;
  int64_t feature;
  Mode mode;
  bool missing_true;
  int64_t next[2];  // false, true
  bool leaf[2];
  size_t members_begin, members_end;
};

struct Forest {
  std::vector<Node> nodes;
  std::vector<double> members;
  std::vector<int64_t> roots;
  std::vector<bool> root_is_leaf;
  std::vector<double> weights;
  std::vector<int64_t> targets;
  int64_t n_targets = 0;
  int64_t max_feature = -1;
  Aggregate aggregate = Aggregate::Sum;
  Post post = Post::None;
};

bool goes_true(const Forest& f, const Node& n, double x) {
  if (std::isnan(x) && n.missing_true) return true;
  switch (n.mode) {
    case Mode::Leq:
      return x <= n.split;
    case Mode::Lt:
      return x < n.split;
    case Mode::Gte:
      return x >= n.split;
    case Mode::Gt:
      return x > n.split;
    case Mode::Eq:
      return x == n.split;
    case Mode::Neq:
      return x != n.split;
    case Mode::Member:
      return std::find(f.members.begin() + static_cast<std::ptrdiff_t>(n.members_begin),
                       f.members.begin() + static_cast<std::ptrdiff_t>(n.members_end),
                       x) != f.members.begin() + static_cast<std::ptrdiff_t>(n.members_end);
  }
  return false;
}

// The leaf a row reaches in tree t (the build checked that every walk ends).
int64_t leaf_of(const Forest& f, size_t t, const double* row) {
  int64_t i = f.roots[t];
  if (f.root_is_leaf[t]) return i;
  while (true) {
    const Node& n = f.nodes[static_cast<size_t>(i)];
    const int side = goes_true(f, n, row[n.feature]) ? 1 : 0;
    if (n.leaf[side]) return n.next[side];
    i = n.next[side];
  }
}

// erf⁻¹ by Newton's method on std::erf from a logarithmic first guess.
double erfinv(double y) {
  if (y <= -1) return -std::numeric_limits<double>::infinity();
  if (y >= 1) return std::numeric_limits<double>::infinity();
  const double a = 0.147, l = std::log(1 - y * y), b = 2 / (std::numbers::pi * a) + l / 2;
  double x = std::copysign(std::sqrt(std::sqrt(b * b - l / a) - b), y);
  for (int k = 0; k < 3; ++k)
    x -= (std::erf(x) - y) / (2 / std::sqrt(std::numbers::pi) * std::exp(-x * x));
  return x;
}

void post_transform(Post p, double* v, int64_t n) {
  if (p == Post::Logistic) {
    for (int64_t i = 0; i < n; ++i) v[i] = 1 / (1 + std::exp(-v[i]));
  } else if (p == Post::Probit) {
    for (int64_t i = 0; i < n; ++i) v[i] = std::numbers::sqrt2 * erfinv(2 * v[i] - 1);
  } else if (p == Post::Softmax || p == Post::SoftmaxZero) {
    const bool skip_zero = p == Post::SoftmaxZero;
    double mx = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t i = 0; i < n; ++i)
      if (!(skip_zero && v[i] == 0)) mx = std::max(mx, v[i]);
    for (int64_t i = 0; i < n; ++i) {
      if (skip_zero && v[i] == 0) continue;
      v[i] = std::exp(v[i] - mx);
      sum += v[i];
    }
    for (int64_t i = 0; i < n; ++i)
      if (!(skip_zero && v[i] == 0)) v[i] /= sum;
  }
}

double largest(ElemType t) {
  if (t == ElemType::Float16) return 65504.0;
  if (t == ElemType::Double) return std::numeric_limits<double>::max();
  if (t == ElemType::BFloat16) return 3.3895313892515355e38;
  return std::numeric_limits<float>::max();
}

class TreeEnsemble : public Kernel {
 public:
  explicit TreeEnsemble(Forest f) : f_(std::move(f)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (!is_float_type(x.type()) || elem_bits(x.type()) < 16)
      fail(ErrorKind::BadInput, "",
           "TreeEnsemble does not support element type " + std::string(elem_name(x.type())));
    if (x.rank() != 2)
      fail(ErrorKind::BadInput, "", "X must be [N, features], got " + shape_string(x.shape()));
    const int64_t rows = x.dim(0), features = x.dim(1), targets = f_.n_targets;
    if (f_.max_feature >= features)
      fail(ErrorKind::BadInput, "",
           "the trees read feature " + std::to_string(f_.max_feature) + " of " +
               std::to_string(features));
    const Tensor xd = kernels::cast(x, ElemType::Double);
    Tensor y(ElemType::Double, Dims{rows, targets});
    const double init = f_.aggregate == Aggregate::Min   ? largest(x.type())
                        : f_.aggregate == Aggregate::Max ? -largest(x.type())
                                                         : 0.0;
    const double trees = static_cast<double>(f_.roots.size());
    io.pool().parallel_for(rows, 64, [&](int64_t s, int64_t e) {
      for (int64_t r = s; r < e; ++r) {
        const double* row = xd.data<double>() + r * features;
        double* out = y.data<double>() + r * targets;
        std::fill(out, out + targets, init);
        for (size_t t = 0; t < f_.roots.size(); ++t) {
          const auto leaf = static_cast<size_t>(leaf_of(f_, t, row));
          double& o = out[f_.targets[leaf]];
          const double w = f_.weights[leaf];
          switch (f_.aggregate) {
            case Aggregate::Average:
              o += w / trees;
              break;
            case Aggregate::Sum:
              o += w;
              break;
            case Aggregate::Min:
              o = std::min(o, w);
              break;
            case Aggregate::Max:
              o = std::max(o, w);
              break;
          }
        }
        post_transform(f_.post, out, targets);
      }
    });
    io.set_output(0, kernels::cast(y, x.type()));
  }

 private:
  Forest f_;
};

std::vector<double> doubles(const BuildContext& ctx, const char* name, bool required) {
  const ir::Attribute* a = ctx.attr(name);
  if (!a) {
    if (required) ctx.invalid(std::string("TreeEnsemble needs ") + name);
    return {};
  }
  const Tensor d = kernels::cast(a->t, ElemType::Double);
  return {d.data<double>(), d.data<double>() + d.numel()};
}

// Every walk from every root must end at a leaf within as many steps as there are nodes.
void check_walks(const BuildContext& ctx, const Forest& f) {
  const auto n = static_cast<int64_t>(f.nodes.size());
  std::vector<std::pair<int64_t, int64_t>> stack;  // node, depth
  for (size_t t = 0; t < f.roots.size(); ++t) {
    if (f.root_is_leaf[t]) continue;
    stack.assign(1, {f.roots[t], 0});
    while (!stack.empty()) {
      auto [i, depth] = stack.back();
      stack.pop_back();
      if (depth > n) ctx.invalid("TreeEnsemble's trees have a cycle");
      const Node& node = f.nodes[static_cast<size_t>(i)];
      for (int side = 0; side < 2; ++side)
        if (!node.leaf[side]) stack.emplace_back(node.next[side], depth + 1);
    }
  }
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Forest f;
  const std::vector<int64_t> features = ctx.attr_ints("nodes_featureids");
  const std::vector<int64_t> true_ids = ctx.attr_ints("nodes_truenodeids");
  const std::vector<int64_t> false_ids = ctx.attr_ints("nodes_falsenodeids");
  const std::vector<int64_t> true_leafs = ctx.attr_ints("nodes_trueleafs");
  const std::vector<int64_t> false_leafs = ctx.attr_ints("nodes_falseleafs");
  const std::vector<int64_t> missing = ctx.attr_ints("nodes_missing_value_tracks_true");
  const std::vector<double> splits = doubles(ctx, "nodes_splits", true);
  const std::vector<double> members = doubles(ctx, "membership_values", false);
  f.weights = doubles(ctx, "leaf_weights", true);
  f.targets = ctx.attr_ints("leaf_targetids");
  f.roots = ctx.attr_ints("tree_roots");
  f.n_targets = ctx.attr_int("n_targets", 0);
  const ir::Attribute* modes_attr = ctx.attr("nodes_modes");
  if (!modes_attr) ctx.invalid("TreeEnsemble needs nodes_modes");
  const Tensor modes = kernels::cast(modes_attr->t, ElemType::Int64);

  const size_t n = features.size();
  if (splits.size() != n || true_ids.size() != n || false_ids.size() != n ||
      true_leafs.size() != n || false_leafs.size() != n ||
      static_cast<size_t>(modes.numel()) != n || (!missing.empty() && missing.size() != n))
    ctx.invalid("TreeEnsemble's nodes_* attributes differ in length");
  if (f.targets.size() != f.weights.size())
    ctx.invalid("leaf_targetids and leaf_weights differ in length");
  if (f.n_targets < 1) ctx.invalid("n_targets must be positive");
  for (int64_t t : f.targets)
    if (t < 0 || t >= f.n_targets) ctx.invalid("leaf target id out of range");
  const int64_t aggregate = ctx.attr_int("aggregate_function", 1);
  const int64_t post = ctx.attr_int("post_transform", 0);
  if (aggregate < 0 || aggregate > 3) ctx.invalid("unknown aggregate_function");
  if (post < 0 || post > 4) ctx.invalid("unknown post_transform");
  f.aggregate = static_cast<Aggregate>(aggregate);
  f.post = static_cast<Post>(post);

  size_t next_member = 0;
  const auto leaves = static_cast<int64_t>(f.weights.size());
  for (size_t i = 0; i < n; ++i) {
    Node node{};
    node.split = splits[i];
    node.feature = features[i];
    const int64_t mode = modes.data<int64_t>()[i];
    if (mode < 0 || mode > 6) ctx.invalid("unknown node mode " + std::to_string(mode));
    node.mode = static_cast<Mode>(mode);
    node.missing_true = !missing.empty() && missing[i] != 0;
    node.next[0] = false_ids[i];
    node.next[1] = true_ids[i];
    node.leaf[0] = false_leafs[i] != 0;
    node.leaf[1] = true_leafs[i] != 0;
    for (int side = 0; side < 2; ++side) {
      const int64_t limit = node.leaf[side] ? leaves : static_cast<int64_t>(n);
      if (node.next[side] < 0 || node.next[side] >= limit)
        ctx.invalid("node or leaf id out of range");
    }
    if (node.feature < 0) ctx.invalid("negative feature id");
    if (node.mode == Mode::Member) {
      node.members_begin = next_member;
      while (next_member < members.size() && !std::isnan(members[next_member])) ++next_member;
      node.members_end = next_member;
      if (next_member == members.size() && node.members_begin == node.members_end)
        ctx.invalid("membership_values has no set for a MEMBER node");
      ++next_member;  // the NaN
    }
    f.nodes.push_back(node);
  }
  f.members = members;
  for (int64_t root : f.roots) {
    if (root < 0 || root >= static_cast<int64_t>(n)) ctx.invalid("tree root out of range");
    const Node& r = f.nodes[static_cast<size_t>(root)];
    const bool leaf = r.leaf[0] && r.leaf[1] && r.next[0] == r.next[1];
    if (leaf && root >= leaves) ctx.invalid("leaf id out of range");
    f.root_is_leaf.push_back(leaf);
  }
  for (const Node& node : f.nodes) f.max_feature = std::max(f.max_feature, node.feature);
  check_walks(ctx, f);
  return std::make_unique<TreeEnsemble>(std::move(f));
}

// [N, n_targets] in X's type.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (x.rank_known && x.dims.size() != 2)
    ctx.invalid("TreeEnsemble needs X of shape [N, features], got rank " +
                std::to_string(x.dims.size()));
  const ir::Dim n = x.rank_known ? x.dims[0] : ir::Dim::unknown();
  const ir::Dim targets =
      ctx.has_attr("n_targets") ? ir::Dim::known(ctx.attr_int("n_targets", 0)) : ir::Dim::unknown();
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of({n, targets}));
}
}  // namespace

OpDef def_MlTreeEnsemble() {
  static constexpr SignatureText kRows[] = {
      {5,
       "X: T -> Y: T; T = float double float16; aggregate_function: int = 1, leaf_targetids: "
       "ints, leaf_weights: tensor, membership_values: tensor?, n_targets: int?, "
       "nodes_falseleafs: ints, nodes_falsenodeids: ints, nodes_featureids: ints, nodes_hitrates: "
       "tensor?, nodes_missing_value_tracks_true: ints?, nodes_modes: tensor, nodes_splits: "
       "tensor, nodes_trueleafs: ints, nodes_truenodeids: ints, post_transform: int = 0, "
       "tree_roots: ints"}};
  return def_from_rows("ai.onnx.ml", "TreeEnsemble", make, infer, kRows);
}

}  // namespace bough::ops
