// legacy-broadcast: before opset 7, the binary elementwise operators broadcast B into A only
// with broadcast=1, and `axis` says where B's dims start in A's. The axis becomes an
// explicit Unsqueeze of B (Unsqueeze-1, `axes` an attribute) appending the trailing dims of
// size 1, after which B aligns at the right as numpy broadcasting does; broadcast=1 stays
// (it is what permits broadcasting at those opsets). Needs the ranks of A and B known.
#include <algorithm>
#include <string_view>

#include "infer/infer.h"
#include "ops/registry.h"
#include "passes/fusion.h"
#include "passes/inline.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

bool takes_legacy_broadcast(const ir::Node& n) {
  static constexpr std::string_view kOps[] = {"Add", "Sub", "Mul",   "Div",     "Pow", "And",
                                              "Or",  "Xor", "Equal", "Greater", "Less"};
  if (!n.domain.empty() || n.inputs.size() != 2 || !n.inputs[0] || !n.inputs[1]) return false;
  const ir::Attribute* broadcast = n.attr("broadcast");
  return std::find(std::begin(kOps), std::end(kOps), n.op_type) != std::end(kOps) && broadcast &&
         broadcast->kind == ir::Attribute::Kind::Int && broadcast->i != 0 && n.attr("axis");
}

}  // namespace

int legacy_broadcast(ir::Model& model) {
  if (model.opset("") >= 7) return 0;  // (function bodies, with opsets of their own, stay)
  const ModelTypes types(model);
  Inliner inliner(model);
  int rewritten = 0;
  for_each_graph(model, [&](ir::Graph& g) {
    NodeEdits edits(g);
    for (const auto& node : g.nodes) {
      ir::Node& n = *node;
      if (!takes_legacy_broadcast(n)) continue;
      const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
      if (!def || ops::since_of(*def, ops::node_opset(&model, nullptr, n)) >= 7) continue;
      const int64_t axis = n.attr("axis")->i;
      const int rank_a = rank_of(types, n.inputs[0]), rank_b = rank_of(types, n.inputs[1]);
      // `axis > rank_a - rank_b`, not `axis + rank_b > rank_a`: an axis of 2^63 - 1 wrapped
      // the sum negative and the node was rewritten as if B fit (the kernel refuses it).
      if (rank_a < 0 || rank_b < 0 || axis < 0 || axis > rank_a - rank_b) continue;
      std::erase_if(n.attributes, [](const ir::Attribute& a) { return a.name == "axis"; });
      ++rewritten;
      const int64_t trailing = rank_a - axis - rank_b;
      if (trailing == 0) continue;  // B already aligns at the right
      ir::Edge* b = n.inputs[1];
      ir::Edge* unsqueezed = inliner.add_value(g, b->name + "_aligned");
      auto unsqueeze = Inliner::make_node(g, "Unsqueeze", {b}, {unsqueezed});
      ir::Attribute axes;
      axes.name = "axes";
      axes.kind = ir::Attribute::Kind::Ints;
      for (int64_t k = 0; k < trailing; ++k) axes.ints.push_back(rank_b + k);
      unsqueeze->attributes.push_back(std::move(axes));
      n.inputs[1] = unsqueezed;
      edits.put_before(n, std::move(unsqueeze));
    }
    edits.apply();
  });
  return rewritten;
}

}  // namespace bough::passes
