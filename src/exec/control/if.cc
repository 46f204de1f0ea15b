// If: runs then_branch or else_branch, chosen by a one-element bool condition.
// Branches take no inputs; what they read from outer scopes arrives as captures.
#include "exec/control/subgraph.h"

namespace bough::ops {

void bad_condition(const Value& v, const char* what) {
  fail(ErrorKind::BadInput, "",
       std::string(what) + " must be a bool tensor with exactly one element, got " + describe(v));
}

namespace {

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

}  // namespace

const OpDef& def_If() {
  static const OpDef def{"", "If", {1, 11, 13, 16, 19, 21, 23, 24, 25}, 1, 1, 1, kVariadic, make};
  return def;
}

}  // namespace bough::ops
