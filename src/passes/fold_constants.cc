// fold-constants: a node whose inputs are all constant (initializers, Constants, values
// folded before it, initializers of enclosing graphs read through captures) is run once
// with the engine's own kernel and its outputs become initializers. Left alone: nodes
// holding subgraphs and random ops (ops::evaluable), calls of model-local functions, nodes
// whose outputs are graph outputs (their names are the graph's interface), outputs whose
// size inference does not know, and results over the size cap.
#include <algorithm>
#include <optional>

#include "bough/error.h"
#include "infer/infer.h"
#include "ops/evaluate.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// A folded result may take this many bytes, or as many as its inputs together, whichever is
// more: folding never lets a small model balloon (Expand of a scalar to 1 GiB stays a node),
// while a transposed constant matrix is folded whatever its size.
constexpr size_t kMaxGrowthBytes = size_t{1} << 20;

// The bytes of a tensor of the inferred type `t`; -1 when its shape is not fully known.
int64_t static_bytes(const ir::Type& t) {
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return -1;
  size_t numel = 1;
  for (const ir::Dim& d : t.shape.dims) {
    if (!d.is_known()) return -1;
    numel *= static_cast<size_t>(d.value);
  }
  return static_cast<int64_t>(elem_storage_bytes(t.elem, numel));
}

class Folder {
 public:
  explicit Folder(ir::Model& model) : model_(model) {}

  int graph(ir::Graph& g) {
    std::unordered_set<const ir::Node*> folded;
    for (const auto& n : g.nodes)
      if (fold(g, *n)) folded.insert(n.get());
    erase_nodes(g, folded);
    return static_cast<int>(folded.size());
  }

 private:
  // The node's input values when all are constant and folding it is allowed.
  bool fold(ir::Graph& g, ir::Node& n) {
    const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
    if (!def || !ops::evaluable(*def) || calls_local_function(model_, n)) return false;
    std::vector<Value> inputs;
    size_t input_bytes = 0;
    for (const ir::Edge* e : n.inputs) {
      const Tensor* t = e ? constant_value(e) : nullptr;
      if (e && !t) return false;
      inputs.push_back(t ? Value(*t) : Value());
      if (t) input_bytes += t->nbytes();
    }
    for (const ir::Edge* e : n.outputs)
      if (e && is_graph_output(g, e)) return false;
    // A Constant's value is in the model already: it cannot grow it.
    if (n.op_type != "Constant" && !within_cap(n, std::max(kMaxGrowthBytes, input_bytes)))
      return false;
    std::vector<Value> outputs;
    try {
      int64_t opset = ops::node_opset(&model_, nullptr, n);
      ops::NodeView view(n, opset, ops::since_of(*def, opset), nullptr,
                         model_.path + ": " + g.path() + "/" + n.label());
      outputs = ops::evaluate(*def, view, inputs);
    } catch (const Error&) {
      return false;  // left for the run to report: the node may never run
    }
    for (size_t o = 0; o < n.outputs.size(); ++o)
      if (n.outputs[o] && (o >= outputs.size() || !outputs[o].is_tensor())) return false;
    for (size_t o = 0; o < n.outputs.size(); ++o)
      if (ir::Edge* e = n.outputs[o]) become_initializer(g, e, outputs[o].tensor());
    return true;
  }

  // Whether the node's outputs, as inference sizes them, fit in `cap` bytes.
  bool within_cap(const ir::Node& n, size_t cap) {
    size_t total = 0;
    for (const ir::Edge* e : n.outputs) {
      if (!e) continue;
      int64_t bytes = static_bytes(types().type_of(e));
      if (bytes < 0) return false;
      total += static_cast<size_t>(bytes);
    }
    return total <= cap;
  }

  static void become_initializer(ir::Graph& g, ir::Edge* e, const Tensor& value) {
    std::vector<ir::Dim> dims;
    for (size_t i = 0; i < value.rank(); ++i) dims.push_back(ir::Dim::known(value.dim(i)));
    e->origin = ir::Edge::Origin::Initializer;
    e->producer = nullptr;
    e->producer_index = 0;
    e->data = value;
    e->type = ir::Type::tensor(value.type(), ir::Shape::of(std::move(dims)));
    g.initializers.push_back(e);
  }

  // Inference runs once, and only when a node is a candidate: most rounds find none.
  const infer::Inferred& types() {
    if (!types_) {
      check::Diagnostics ignored;  // the model was checked before any pass runs
      types_ = infer::infer_model(model_, ignored);
    }
    return *types_;
  }

  ir::Model& model_;
  std::optional<infer::Inferred> types_;
};

}  // namespace

int fold_constants(ir::Model& model) {
  Folder folder(model);
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += folder.graph(g); });
  return folded;
}

}  // namespace bough::passes
