// If against its branches: one input (a bool cond), input-less branches with as many
// outputs as the node, branch types that agree, declared outputs compatible with the union
// of the branches, and the types the If row for the model's opset allows. The kernel in
// exec/control relies on these counts; checking them here reports them all at once, with
// their places, before anything is planned.
#include <string>

#include "check/control_flow_rules.h"
#include "check/control_flow_util.h"

namespace bough::check {

namespace {

// Same kind and element type all the way down, where both are known; shapes may differ.
bool same_kinds(const ir::Type& a, const ir::Type& b) {
  if (a.kind != b.kind) return false;
  if (a.elem != b.elem && a.elem != ElemType::Undefined && b.elem != ElemType::Undefined)
    return false;
  return !a.inner || !b.inner || !a.inner->defined() || !b.inner->defined() ||
         same_kinds(*a.inner, *b.inner);
}

void check_if_types(const NodeSite& site, const ir::Graph& then_g, const ir::Graph& else_g) {
  const int since = ops::since_of(*ops::find_op("", "If"), site.opset);
  const std::string row = "If-" + std::to_string(since);
  // Output `i` of a branch or of the node, at `place`, against the row.
  auto allowed = [&](const ir::Edge* e, size_t i, const std::string& place) {
    std::string why;
    if (!if_allows(since, e->type, &why))
      site.out.error(place, "output " + std::to_string(i) + " '" + e->name + "' has type " +
                                ir::to_string(e->type) + ", which " + row + " does not allow (" +
                                why + ")");
  };
  for (const ir::Graph* g : {&then_g, &else_g})
    for (size_t i = 0; i < g->outputs.size(); ++i) allowed(g->outputs[i], i, g->path());
  const auto& outs = site.node.outputs;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i]) allowed(outs[i], i, site.place());
    if (i >= then_g.outputs.size() || i >= else_g.outputs.size()) continue;
    const ir::Type& a = then_g.outputs[i]->type;
    const ir::Type& b = else_g.outputs[i]->type;
    if (a.defined() && b.defined() && !same_kinds(a, b)) {
      site.out.error(site.place(), "output " + std::to_string(i) + ": then_branch yields " +
                                       ir::to_string(a) + " but else_branch yields " +
                                       ir::to_string(b) +
                                       "; the branches must agree in kind and element type");
      continue;
    }
    if (!outs[i] || !outs[i]->type.defined()) continue;
    if (!compatible(outs[i]->type, a) || !compatible(outs[i]->type, b)) {
      std::string branches = a.defined() && b.defined()
                                 ? "the union of the branches, " + ir::to_string(union_type(a, b))
                                 : "what the branches yield";
      const std::string message = "output " + std::to_string(i) + " '" + outs[i]->name +
                                  "' is declared " + ir::to_string(outs[i]->type) +
                                  ", incompatible with " + branches + " (then_branch " +
                                  ir::to_string(a) + ", else_branch " + ir::to_string(b) + ")";
      // Only the shape conflicts: a warning when running, which goes by the shapes it meets.
      if (!site.options.shape_conflicts_are_errors && same_kinds(outs[i]->type, a) &&
          same_kinds(outs[i]->type, b))
        site.out.warning(site.place(), message + "; it runs by the shapes it meets");
      else
        site.out.error(site.place(), message);
    }
  }
}

}  // namespace

void check_if(const NodeSite& site) {
  const ir::Node& n = site.node;
  if (n.inputs.size() != 1)
    site.out.error(site.place(), "If takes exactly one input (cond), found " +
                                     std::to_string(n.inputs.size()) +
                                     "; branches read other values by name (`bough optimize "
                                     "--repair` turns payload inputs into captures)");
  if (!n.inputs.empty() && n.inputs[0])
    expect_elem(n.inputs[0], ElemType::Bool, site.place(), "cond", site.out);
  const ir::Graph* then_g = graph_attribute(site, "then_branch");
  const ir::Graph* else_g = graph_attribute(site, "else_branch");
  for (const ir::Graph* g : {then_g, else_g}) {
    if (!g) continue;
    if (!g->inputs.empty())
      site.out.error(g->path(), "an If branch takes no inputs, found " +
                                    count(g->inputs.size(), "input") + " ('" + g->inputs[0]->name +
                                    "'...); it reads outer values by name");
    if (g->outputs.size() != n.outputs.size())
      site.out.error(site.place(), "If has " + count(n.outputs.size(), "output") + " but " +
                                       g->owner_attr + " yields " +
                                       std::to_string(g->outputs.size()));
  }
  if (then_g && else_g) check_if_types(site, *then_g, *else_g);
}

}  // namespace bough::check
