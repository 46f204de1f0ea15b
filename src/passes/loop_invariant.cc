// loop-invariant: a node of a Loop or Scan body whose inputs are all invariant — captures,
// the body's initializers, outputs of nodes hoisted before it — computes the same value on
// every iteration, so it moves out, just before the Loop or Scan, and the body captures its
// outputs instead. Only deterministic nodes without subgraphs move (ops::evaluable), never
// one whose output is a body output, nor a call of a model-local function. Only out of a
// loop known to run at least once: hoisted, a node runs even when the loop would not, and
// it may fail there (Gather(x, 0) in a loop over an x that may be empty). A node of nested
// bodies rises in one pass through every loop it is invariant in, each known to run: to the
// outermost graph holding none of its inputs' makers, where it is placed before the loop
// holding it, and the graphs between capture its outputs only where a node left there reads
// them. Graphs are walked parents first, so a node's inputs are where they will stay.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ops/evaluate.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

bool constant_at_least_one(const ir::Edge* e) {
  const Tensor* t = e ? constant_value(e) : nullptr;
  return t && t->numel() == 1 && t->type() == ElemType::Int64 && t->data<int64_t>()[0] >= 1;
}

bool constant_true_or_absent(const ir::Edge* e) {
  if (!e) return true;
  const Tensor* t = constant_value(e);
  return t && t->numel() == 1 && t->type() == ElemType::Bool && t->data<bool>()[0];
}

// Whether the loop's body is known to run at least once: a Loop with a constant trip
// count of 1 or more and no condition or a true one; a Scan (opset 9+) whose first scan
// input has a known length of 1 or more along its scan axis.
bool runs_at_least_once(const ir::Model& model, const ir::Node& n) {
  if (n.op_type == "Loop")
    return n.inputs.size() >= 2 && constant_at_least_one(n.inputs[0]) &&
           constant_true_or_absent(n.inputs[1]);
  const ir::Attribute* scans = n.attr("num_scan_inputs");
  if (model.opset("") < 9 || !scans || scans->i < 1 ||
      static_cast<size_t>(scans->i) > n.inputs.size())
    return false;
  const ir::Edge* first = n.inputs[n.inputs.size() - static_cast<size_t>(scans->i)];
  if (!first || first->type.kind != ir::Type::Kind::Tensor || !first->type.shape.rank_known)
    return false;
  const auto& dims = first->type.shape.dims;
  int64_t axis = 0;
  if (const ir::Attribute* axes = n.attr("scan_input_axes"); axes && !axes->ints.empty())
    axis = axes->ints[0] < 0 ? axes->ints[0] + static_cast<int64_t>(dims.size()) : axes->ints[0];
  return axis >= 0 && axis < static_cast<int64_t>(dims.size()) &&
         dims[static_cast<size_t>(axis)].is_known() && dims[static_cast<size_t>(axis)].value >= 1;
}

// Where a hoisted node's output went: the new value, in the graph of that level.
struct Hoisted {
  ir::Edge* value;
  size_t level;
};

class Hoister {
 public:
  explicit Hoister(const ir::Model& model) : model_(model), names_(model) {}

  // Hoists what it can out of `g` when it is the body of a loop that runs at least once;
  // returns how many nodes. They are placed in their graphs by finish().
  int graph(ir::Graph& g) {
    if (!hoistable(g)) return 0;
    // The graphs a node of g may rise to, outermost first, then g itself.
    chain_.assign(1, &g);
    while (hoistable(*chain_.back())) chain_.push_back(chain_.back()->parent);
    std::reverse(chain_.begin(), chain_.end());
    const size_t own = chain_.size() - 1;
    const std::unordered_set<const ir::Edge*> outputs(g.outputs.begin(), g.outputs.end());
    std::unordered_map<const ir::Edge*, Hoisted> hoisted;  // g's old value -> where it went
    int count = 0;
    for (std::unique_ptr<ir::Node>& n : g.nodes) {
      const size_t level = movable(*n, outputs) ? target_level(*n, hoisted) : own;
      if (level == own) continue;
      names_.count();  // before the first node leaves the model
      move(*n, level, hoisted);
      edits(*chain_[level]).put_before(*chain_[level + 1]->owner, std::move(n));
      ++count;
    }
    if (count == 0) return 0;
    std::erase(g.nodes, nullptr);
    // The values the nodes left in g read through captures of the moved ones.
    EdgeMap recaptured;
    for (const auto& n : g.nodes) {
      for (const auto* reads : {&n->inputs, &n->implicit_inputs})
        for (const ir::Edge* e : *reads) {
          const auto it = hoisted.find(e);
          if (it != hoisted.end() && !recaptured.count(e))
            recaptured[e] = visible(it->second.value, it->second.level, own);
        }
    }
    replace_uses(g, recaptured);
    return count;
  }

  // Places the hoisted nodes before their loops.
  void finish() {
    for (auto& [graph, edits] : edits_) edits.apply();
  }

 private:
  // Whether `g` is the body of a Loop or Scan known to run at least once.
  bool hoistable(const ir::Graph& g) const {
    const ir::Node* owner = g.owner;
    if (!owner || !g.parent || (owner->op_type != "Loop" && owner->op_type != "Scan") ||
        !owner->domain.empty())
      return false;
    const ir::Attribute* body = owner->attr("body");
    return body && body->g.get() == &g && runs_at_least_once(model_, *owner);
  }

  // Whether `n` may leave its body at all: deterministic, without subgraphs, reading
  // something, and making no output of the body.
  bool movable(const ir::Node& n, const std::unordered_set<const ir::Edge*>& outputs) const {
    if (n.inputs.empty() || calls_local_function(model_, n)) return false;
    const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
    if (!def || !ops::evaluable(*def)) return false;
    return std::none_of(n.outputs.begin(), n.outputs.end(),
                        [&](const ir::Edge* e) { return e && outputs.count(e); });
  }

  // The level of chain_ where an input's value is made: a body input or a value of a node
  // that stays pins a node to that body; constants (initializers) pin nothing, as they are
  // copied along.
  size_t level_of(const ir::Edge* e, const std::unordered_map<const ir::Edge*, Hoisted>& hoisted) {
    if (const auto it = hoisted.find(e); it != hoisted.end()) return it->second.level;
    while (e->origin == ir::Edge::Origin::Capture) e = e->outer;
    if (e->origin == ir::Edge::Origin::Initializer) return 0;
    for (size_t level = chain_.size(); level-- > 1;)
      if (chain_[level] == e->graph) return level;
    return 0;  // made at or above the outermost graph
  }

  size_t target_level(const ir::Node& n,
                      const std::unordered_map<const ir::Edge*, Hoisted>& hoisted) {
    size_t level = 0;
    for (const ir::Edge* e : n.inputs)
      if (e) level = std::max(level, level_of(e, hoisted));
    return level;
  }

  // Moves `n` (of the last graph of chain_) to chain_[level]: its inputs become that graph's
  // values (copies of initializers made below it), its outputs new values there.
  void move(ir::Node& n, size_t level, std::unordered_map<const ir::Edge*, Hoisted>& hoisted) {
    ir::Graph& to = *chain_[level];
    n.graph = &to;
    for (ir::Edge*& in : n.inputs) {
      if (!in) continue;
      if (const auto it = hoisted.find(in); it != hoisted.end()) {
        in = visible(it->second.value, it->second.level, level);
        continue;
      }
      ir::Edge* e = in;
      while (e->graph != &to && e->origin == ir::Edge::Origin::Capture) e = e->outer;
      in = e->graph == &to ? e : copy_initializer(to, e);
    }
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      ir::Edge* old = n.outputs[o];
      if (!old) continue;
      ir::Edge* e = to.new_edge(names_.claim(old->name), ir::Edge::Origin::NodeOutput);
      e->type = old->type;
      e->producer = &n;
      e->producer_index = static_cast<int>(o);
      n.outputs[o] = e;
      hoisted[old] = {e, level};
    }
  }

  ir::Edge* copy_initializer(ir::Graph& to, const ir::Edge* init) {
    ir::Edge*& copy = copies_[{init, &to}];
    if (!copy) {
      copy = to.new_edge(names_.claim_new(init->name), ir::Edge::Origin::Initializer);
      copy->type = init->type;
      copy->data = init->data;
      to.initializers.push_back(copy);
    }
    return copy;
  }

  // `value`, a value of chain_[from], as seen in chain_[to] (at or below it): the captures
  // of it in the graphs between, made the first time they are needed.
  ir::Edge* visible(ir::Edge* value, size_t from, size_t to) {
    ir::Edge* seen = value;
    for (size_t level = from + 1; level <= to; ++level) {
      ir::Graph& body = *chain_[level];
      ir::Edge*& cap = captures_[{value, &body}];
      if (!cap) {
        cap = body.new_edge(value->name, ir::Edge::Origin::Capture);
        cap->outer = seen;
        cap->type = value->type;
        body.captures.push_back(cap);
        body.owner->implicit_inputs.push_back(seen);
      }
      seen = cap;
    }
    return seen;
  }

  NodeEdits& edits(ir::Graph& g) { return edits_.try_emplace(&g, g).first->second; }

  struct PairHash {
    size_t operator()(const std::pair<const ir::Edge*, const ir::Graph*>& p) const {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };

  const ir::Model& model_;
  NameSet names_;
  std::vector<ir::Graph*> chain_;  // of the graph being hoisted from
  std::unordered_map<ir::Graph*, NodeEdits> edits_;
  // (initializer, graph) -> its copy there; (value, graph) -> its capture there.
  std::unordered_map<std::pair<const ir::Edge*, const ir::Graph*>, ir::Edge*, PairHash> copies_,
      captures_;
};

}  // namespace

int loop_invariant(ir::Model& model) {
  Hoister hoister(model);
  int hoisted = 0;
  for_each_graph(model, [&](ir::Graph& g) { hoisted += hoister.graph(g); });
  hoister.finish();
  return hoisted;
}

}  // namespace bough::passes
