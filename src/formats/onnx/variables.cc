#include "formats/onnx/variables.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_set>

#include "bough/error.h"
#include "ir/clone.h"
#include "ir/replace_uses.h"
#include "ir/variable_ops.h"

namespace bough::onnx {

namespace {

using ir::is_variable_op;
using ir::variable_of;

// A value name not in `taken` (the graph's names, counted once): `wanted`, else `wanted_2`,
// ...; it is taken from then on.
std::string free_name(std::unordered_set<std::string>& taken, const std::string& wanted) {
  std::string name = wanted;
  for (int k = 2; taken.count(name); ++k) name = wanted + "_" + std::to_string(k);
  taken.insert(name);
  return name;
}

// Makes each value of `map` that is itself a key stand for what that key becomes (an Assign
// of what another Assign wrote), so that replace_uses, which looks each reader up once,
// gives each reader the value it ends with. The graph is acyclic, so each chain ends.
void follow_chains(ir::EdgeMap& map) {
  for (auto& [from, to] : map)
    for (size_t steps = 0; map.count(to) && steps < map.size(); ++steps) to = map.at(to);
}

// The zeros a ReadValue without init_value returns (the check made its type static).
Tensor zeros_of(const ir::Node& read) {
  const ir::Attribute* type = read.attr("variable_type");
  const ir::Attribute* shape = read.attr("variable_shape");
  if (!type || type->i == 0 || !shape ||
      std::any_of(shape->ints.begin(), shape->ints.end(), [](int64_t d) { return d < 0; }))
    fail(ErrorKind::InvalidModel, read.label(),
         "variable '" + variable_of(read) + "' has no initial value to write to ONNX");
  Tensor t(static_cast<ElemType>(type->i), Dims(std::span<const int64_t>(shape->ints)));
  if (t.nbytes()) std::memset(t.raw(), 0, t.nbytes());
  return t;
}

// Drops the nodes whose outputs nothing reads (what computed only an init_value).
void drop_unread(ir::Graph& g) {
  std::unordered_set<const ir::Edge*> needed(g.outputs.begin(), g.outputs.end());
  std::unordered_set<const ir::Node*> dead;
  for (auto it = g.nodes.rbegin(); it != g.nodes.rend(); ++it) {
    const ir::Node& n = **it;
    if (std::none_of(n.outputs.begin(), n.outputs.end(),
                     [&](const ir::Edge* e) { return e && needed.count(e); })) {
      dead.insert(&n);
      continue;
    }
    needed.insert(n.inputs.begin(), n.inputs.end());
    needed.insert(n.implicit_inputs.begin(), n.implicit_inputs.end());
  }
  std::erase_if(g.nodes, [&](const auto& n) { return dead.count(n.get()) != 0; });
}

}  // namespace

std::unique_ptr<ir::Model> stateless_form(const ir::Model& model) {
  if (!model.graph || std::none_of(model.graph->nodes.begin(), model.graph->nodes.end(),
                                   [](const auto& n) { return is_variable_op(*n, "ReadValue"); }))
    return nullptr;
  std::unique_ptr<ir::Model> m = ir::clone_model(model);
  ir::Graph& g = *m->graph;
  std::map<std::string, const ir::Node*> assigns;
  for (const auto& n : g.nodes)
    if (is_variable_op(*n, "Assign")) assigns.emplace(variable_of(*n), n.get());
  bool dropped_init = false;
  std::unordered_set<const ir::Node*> gone;
  std::unordered_set<std::string> taken;
  for (const auto& e : g.edges()) taken.insert(e->name);
  ir::EdgeMap replaced;  // every ReadValue's output, then every Assign's, and what reads instead
  for (const auto& n : g.nodes) {
    if (!is_variable_op(*n, "ReadValue")) continue;
    const std::string id = variable_of(*n);
    ir::Edge* value = n->outputs[0];
    const bool has_init = !n->inputs.empty() && n->inputs[0];
    ir::Edge* with = nullptr;
    if (assigns.count(id)) {
      with = g.new_edge(free_name(taken, "input_restored." + id), ir::Edge::Origin::Input);
      ir::copy_value_details(*value, *with);
      with->has_value_info = true;
      g.inputs.push_back(with);
      dropped_init = dropped_init || has_init;
      if (!has_init) {  // zeros: the first run's value, as the input's default
        with->data = zeros_of(*n);
        g.initializers.push_back(with);
      }
    } else if (has_init) {
      with = n->inputs[0];
    } else {
      with = g.new_edge(free_name(taken, value->name), ir::Edge::Origin::Initializer);
      with->data = zeros_of(*n);
      with->type = value->type;
      g.initializers.push_back(with);
    }
    replaced.emplace(value, with);
    gone.insert(n.get());
  }
  for (const auto& n : g.nodes) {
    if (!is_variable_op(*n, "Assign")) continue;
    const std::string id = variable_of(*n);
    ir::Edge* state =
        g.new_edge(free_name(taken, "output_restored." + id), ir::Edge::Origin::NodeOutput);
    state->type = n->inputs[0]->type;
    state->has_value_info = true;
    replaced.emplace(n->outputs[0], n->inputs[0]);
    // The Assign becomes the Identity that names the new state.
    n->op_type = "Identity";
    n->domain.clear();
    n->attributes.clear();
    n->inputs.resize(1);
    n->outputs = {state};
    state->producer = n.get();
    state->producer_index = 0;
    g.outputs.push_back(state);
  }
  follow_chains(replaced);
  ir::replace_uses(g, replaced);  // one walk of the graph for every variable
  std::erase_if(g.nodes, [&](const auto& n) { return gone.count(n.get()) != 0; });
  if (dropped_init) drop_unread(g);
  bool any = false;
  for (const auto& n : g.nodes) any = any || n->domain == ir::kOpenVinoToolkitDomain;
  if (!any)
    std::erase_if(m->opset_imports,
                  [](const auto& imp) { return imp.first == ir::kOpenVinoToolkitDomain; });
  return m;
}

}  // namespace bough::onnx
