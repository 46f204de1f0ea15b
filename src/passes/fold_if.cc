// fold-if: an If whose condition is constant — an initializer or Constant, also one of an
// enclosing graph read through captures, or a value fold-constants made constant — is
// replaced by its taken branch, inlined where the If stood. The branch's values move into
// the parent under names no other value of the model has; its captures become the outer
// values they read; its initializers move along; subgraphs of the moved nodes (a Loop
// capturing branch values, nested Ifs) are re-pointed at the moved values. A branch output
// produced by a branch node takes over the If's output (and its name); an output that is an
// initializer, an outer value or a repeated value becomes an Identity of it.
#include <iterator>
#include <unordered_map>

#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

using EdgeMap = std::unordered_map<const ir::Edge*, ir::Edge*>;

// The branch an If will take, when its condition is known; null otherwise.
ir::Graph* taken_branch(const ir::Node& n) {
  if (n.op_type != "If" || !n.domain.empty() || n.inputs.empty() || !n.inputs[0]) return nullptr;
  const Tensor* cond = constant_value(n.inputs[0]);
  if (!cond || cond->type() != ElemType::Bool || cond->numel() != 1) return nullptr;
  const ir::Attribute* branch = n.attr(cond->data<bool>()[0] ? "then_branch" : "else_branch");
  if (!branch || !branch->g) return nullptr;
  ir::Graph& g = *branch->g;
  // A branch with formal inputs breaks the spec (legalize-if's business, not ours).
  if (!g.inputs.empty() || g.outputs.size() != n.outputs.size()) return nullptr;
  return &g;
}

class IfFolder {
 public:
  explicit IfFolder(ir::Model& model) : names_(model) {}

  int graph(ir::Graph& g) {
    int folded = 0;
    // After an inlining, index i holds the first moved node: nested Ifs fold in turn.
    for (size_t i = 0; i < g.nodes.size();) {
      if (ir::Graph* branch = taken_branch(*g.nodes[i])) {
        inline_branch(g, i, *branch);
        ++folded;
      } else {
        ++i;
      }
    }
    return folded;
  }

 private:
  ir::Edge* moved_edge(ir::Graph& g, const ir::Edge& from, ir::Edge::Origin origin) {
    ir::Edge* e = g.new_edge(names_.claim(from.name), origin);
    e->type = from.type;
    e->data = from.data;
    e->doc_string = from.doc_string;
    e->metadata = from.metadata;
    e->has_value_info = from.has_value_info;
    return e;
  }

  void inline_branch(ir::Graph& g, size_t at, ir::Graph& branch) {
    std::unique_ptr<ir::Node> if_node = std::move(g.nodes[at]);  // owns the branches
    g.nodes.erase(g.nodes.begin() + static_cast<std::ptrdiff_t>(at));
    EdgeMap map;
    for (ir::Edge* c : branch.captures) map[c] = c->outer;
    for (ir::Edge* init : branch.initializers) {
      ir::Edge* e = moved_edge(g, *init, ir::Edge::Origin::Initializer);
      g.initializers.push_back(e);
      map[init] = e;
    }
    // Branch outputs computed in the branch become the If's outputs themselves.
    std::vector<std::pair<ir::Edge*, const ir::Edge*>> bridged;  // If output <- branch value
    for (size_t k = 0; k < branch.outputs.size(); ++k) {
      ir::Edge* x = if_node->outputs[k];
      const ir::Edge* b = branch.outputs[k];
      if (!x) continue;
      if (b->origin == ir::Edge::Origin::NodeOutput && !map.count(b))
        map[b] = x;
      else
        bridged.emplace_back(x, b);
    }
    std::vector<std::unique_ptr<ir::Node>> moved = std::move(branch.nodes);
    branch.nodes.clear();
    for (auto& n : moved) move_node(g, *n, map);
    for (const auto& [x, b] : bridged) {
      auto id = std::make_unique<ir::Node>();
      id->op_type = "Identity";
      id->name = if_node->name.empty() ? "" : names_.claim(if_node->name + "/" + x->name);
      id->graph = &g;
      id->inputs = {map.at(b)};
      id->outputs = {x};
      x->producer = id.get();
      x->producer_index = 0;
      moved.push_back(std::move(id));
    }
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(at),
                   std::make_move_iterator(moved.begin()), std::make_move_iterator(moved.end()));
  }

  void move_node(ir::Graph& g, ir::Node& n, EdgeMap& map) {
    n.graph = &g;
    for (ir::Edge*& in : n.inputs)
      if (in) in = map.at(in);
    for (ir::Edge*& in : n.implicit_inputs) in = map.at(in);
    for (ir::Graph* sub : subgraphs(n)) {
      sub->parent = &g;
      for (ir::Edge* c : sub->captures) set_capture_outer(c, map.at(c->outer));
    }
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      ir::Edge*& out = n.outputs[o];
      if (!out) continue;
      auto it = map.find(out);
      ir::Edge* e = it != map.end()
                        ? it->second
                        : (map[out] = moved_edge(g, *out, ir::Edge::Origin::NodeOutput));
      e->producer = &n;
      e->producer_index = static_cast<int>(o);
      out = e;
    }
  }

  NameSet names_;
};

}  // namespace

int fold_if(ir::Model& model) {
  IfFolder folder(model);
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += folder.graph(g); });
  return folded;
}

}  // namespace bough::passes
