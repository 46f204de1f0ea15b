// loop-invariant: a node of a Loop or Scan body whose inputs are all invariant — captures,
// the body's initializers, outputs of nodes hoisted before it — computes the same value on
// every iteration, so it moves out, just before the Loop or Scan, and the body captures its
// outputs instead. Only deterministic nodes without subgraphs move (ops::evaluable), never
// one whose output is a body output, nor a call of a model-local function. Only out of a
// loop known to run at least once: hoisted, a node runs even when the loop would not, and
// it may fail there (Gather(x, 0) in a loop over an x that may be empty). Nested bodies
// rise one level per pipeline round.
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

class Hoister {
 public:
  explicit Hoister(const ir::Model& model) : model_(model), names_(model) {}

  // Hoists what it can out of the body of the loop at g.nodes[at]; returns how many nodes.
  size_t loop(ir::Graph& g, size_t at) {
    ir::Node& owner = *g.nodes[at];
    const ir::Attribute* body_attr = owner.attr("body");
    if (!body_attr || !body_attr->g) return 0;
    ir::Graph& body = *body_attr->g;
    std::vector<std::unique_ptr<ir::Node>> hoisted;
    std::unordered_map<const ir::Edge*, ir::Edge*> moved_initializers;
    for (size_t j = 0; j < body.nodes.size();) {
      if (!invariant(body, *body.nodes[j])) {
        ++j;
        continue;
      }
      ir::Node& n = *body.nodes[j];
      n.graph = &g;
      for (ir::Edge*& in : n.inputs) {
        if (!in) continue;
        if (in->origin == ir::Edge::Origin::Capture) {
          in = in->outer;
          continue;
        }
        ir::Edge*& copy = moved_initializers[in];
        if (!copy) {
          copy = g.new_edge(names_.claim_new(in->name), ir::Edge::Origin::Initializer);
          copy->type = in->type;
          copy->data = in->data;
          g.initializers.push_back(copy);
        }
        in = copy;
      }
      for (size_t o = 0; o < n.outputs.size(); ++o)
        if (ir::Edge* old = n.outputs[o]) n.outputs[o] = hoist_output(g, owner, body, n, o, old);
      hoisted.push_back(std::move(body.nodes[j]));
      body.nodes.erase(body.nodes.begin() + static_cast<std::ptrdiff_t>(j));
    }
    const size_t count = hoisted.size();
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(at),
                   std::make_move_iterator(hoisted.begin()),
                   std::make_move_iterator(hoisted.end()));
    return count;
  }

 private:
  bool invariant(const ir::Graph& body, const ir::Node& n) const {
    if (n.inputs.empty() || calls_local_function(model_, n)) return false;
    const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
    if (!def || !ops::evaluable(*def)) return false;
    for (const ir::Edge* e : n.inputs)
      if (e && e->origin != ir::Edge::Origin::Capture && e->origin != ir::Edge::Origin::Initializer)
        return false;
    for (const ir::Edge* e : n.outputs)
      if (e && is_graph_output(body, e)) return false;
    return true;
  }

  // The parent value that replaces body value `old` (output o of the hoisted node); the
  // body reads it through a new capture.
  ir::Edge* hoist_output(ir::Graph& g, ir::Node& owner, ir::Graph& body, ir::Node& n, size_t o,
                         ir::Edge* old) {
    ir::Edge* e = g.new_edge(names_.claim(old->name), ir::Edge::Origin::NodeOutput);
    e->type = old->type;
    e->producer = &n;
    e->producer_index = static_cast<int>(o);
    ir::Edge* cap = body.new_edge(e->name, ir::Edge::Origin::Capture);
    cap->outer = e;
    cap->type = e->type;
    body.captures.push_back(cap);
    owner.implicit_inputs.push_back(e);
    replace_uses(body, old, cap);
    return e;
  }

  const ir::Model& model_;
  NameSet names_;
};

}  // namespace

int loop_invariant(ir::Model& model) {
  Hoister hoister(model);
  int hoisted = 0;
  for_each_graph(model, [&](ir::Graph& g) {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const ir::Node& n = *g.nodes[i];
      if ((n.op_type != "Loop" && n.op_type != "Scan") || !n.domain.empty() ||
          !runs_at_least_once(model, n))
        continue;
      size_t moved = hoister.loop(g, i);
      i += moved;  // past the hoisted nodes, to the loop itself
      hoisted += static_cast<int>(moved);
    }
  });
  return hoisted;
}

}  // namespace bough::passes
