// If: runs then_branch or else_branch, chosen by a one-element bool condition.
// Branches take no inputs; what they read from outer scopes arrives as captures.
#include <algorithm>
#include <optional>

#include "check/control_flow_rules.h"
#include "exec/control/subgraph.h"
#include "ops/def_from_rows.h"

namespace bough::ops {

void bad_condition(const Value& v, const char* what) {
  fail(ErrorKind::BadInput, "",
       std::string(what) + " must be a bool tensor with exactly one element, got " + describe(v));
}

namespace {
namespace if_op {

class If : public Kernel {
 public:
  If(Body then_body, Body else_body) : then_(std::move(then_body)), else_(std::move(else_body)) {}

  void run(KernelIO& io) override {
    Body& branch = read_condition(io.value(0), "the If condition") ? then_ : else_;
    branch.bind_captures(io);
    for (size_t i = 0; i < io.num_outputs(); ++i)
      if (io.has_output(i)) branch.plan->bind_output(i, io.output(i));  // computed in place
    branch.plan->run(io.context());
    for (size_t i = 0; i < io.num_outputs(); ++i)
      if (io.has_output(i)) branch.plan->take_output(i, io.output(i));
    branch.plan->reset();
  }

 private:
  Body then_, else_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Graph& then_graph = ctx.graph_attr("then_branch");
  const ir::Graph& else_graph = ctx.graph_attr("else_branch");
  size_t n = ctx.node.outputs.size();
  if (then_graph.outputs.size() != n || else_graph.outputs.size() != n)
    ctx.invalid("If has " + std::to_string(n) + " outputs but then_branch yields " +
                std::to_string(then_graph.outputs.size()) + " and else_branch " +
                std::to_string(else_graph.outputs.size()));
  return std::make_unique<If>(Body::compile(ctx, then_graph), Body::compile(ctx, else_graph));
}

bool is_static(const ir::Type& t) {
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return false;
  for (const ir::Dim& d : t.shape.dims)
    if (!d.is_known()) return false;
  return true;
}

// Each output is the union of the branches' (the taken branch's, when the condition is
// known before running).
void infer(InferContext& ctx) {
  std::vector<ir::Type> then_types = ctx.infer_subgraph(ctx.graph_attr("then_branch"), {});
  std::vector<ir::Type> else_types = ctx.infer_subgraph(ctx.graph_attr("else_branch"), {});
  const Tensor* cond = ctx.input_value(0);
  const ir::Type& cond_type = ctx.input_type(0);
  if (is_static(cond_type)) {
    int64_t n = 1;
    for (const ir::Dim& d : cond_type.shape.dims) n *= d.value;
    if (n != 1)
      ctx.error("the condition must hold exactly one element, but its shape " +
                ir::to_string(cond_type.shape) + " holds " + std::to_string(n));
  }
  std::optional<bool> taken;
  if (cond && cond->type() == ElemType::Bool && cond->numel() == 1) taken = *cond->data<bool>();
  size_t n = std::min({ctx.num_outputs(), then_types.size(), else_types.size()});
  for (size_t k = 0; k < n; ++k) {
    const ir::Type& a = then_types[k];
    const ir::Type& b = else_types[k];
    if (!check::kinds_agree(a, b)) {
      ctx.error("output " + std::to_string(k) + ": then_branch yields " + ir::to_string(a) +
                ", else_branch " + ir::to_string(b));
      continue;
    }
    // If-1 (opsets 1 to 10) asks both branches for the same shape; later versions take
    // their union. Shapes of dims unknown here are left to the run.
    if (ctx.since == 1 && a.kind == ir::Type::Kind::Tensor && !check::compatible(a, b))
      ctx.shape_conflict("output " + std::to_string(k) + ": then_branch yields " +
                         ir::to_string(a) + ", else_branch " + ir::to_string(b) +
                         "; If-1 (opset 10 and older) requires the same shape");
    // A declaration must describe the static shape of either branch, not only their
    // union: [2] cannot describe the [3] of the other branch, though it fits their union
    // [?]. Shapes with dims unknown here are left to the run.
    const ir::Edge* out = ctx.node.outputs[k];
    const std::pair<const char*, const ir::Type*> branches[] = {{"then_branch", &a},
                                                                {"else_branch", &b}};
    for (const auto& [branch, type] : branches)
      if (out && out->has_value_info && is_static(*type) && check::kinds_agree(out->type, *type) &&
          !check::compatible(out->type, *type))
        ctx.shape_conflict("output " + std::to_string(k) + " ('" + out->name + "') is declared " +
                           ir::to_string(out->type) + ", but " + branch + " yields " +
                           ir::to_string(*type));
    ctx.set_output(k, taken ? (*taken ? a : b) : check::union_type(a, b));
  }
}

constexpr SignatureText kRows[] = {
    {1, "cond: B -> outputs**: V; B = bool; V = all; then_branch: graph, else_branch: graph"},
    {11, "cond: B -> outputs**: V; B = bool; V = all; then_branch: graph, else_branch: graph"},
    {13,
     "cond: B -> outputs**: V; B = bool; V = all seq(all); then_branch: graph, "
     "else_branch: graph"},
    {16,
     "cond: B -> outputs**: V; B = bool; V = all_ir4 seq(all_ir4) optional(all_ir4) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"},
    {19,
     "cond: B -> outputs**: V; B = bool; V = all_ir9 seq(all_ir9) optional(all_ir9) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"},
    {21,
     "cond: B -> outputs**: V; B = bool; V = all_ir10 seq(all_ir10) optional(all_ir10) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"},
    {23,
     "cond: B -> outputs**: V; B = bool; V = all_ir11 seq(all_ir11) optional(all_ir11) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"},
    {24,
     "cond: B -> outputs**: V; B = bool; V = all_ir12 seq(all_ir12) optional(all_ir12) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"},
    {25,
     "cond: B -> outputs**: V; B = bool; V = all_ir13 seq(all_ir13) optional(all_ir13) "
     "optional(seq(all_ir4)); then_branch: graph, else_branch: graph"}};

}  // namespace if_op
}  // namespace

OpDef def_If() {
  using namespace if_op;
  return def_from_rows("", "If", make, infer, kRows);
}

}  // namespace bough::ops
