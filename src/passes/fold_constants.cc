// fold-constants: a node whose inputs are all constant (initializers, Constants, values
// folded before it, initializers of enclosing graphs read through captures) is run once
// with the engine's own kernel and its outputs become initializers. Left alone: nodes
// holding subgraphs and random ops (ops::evaluable), calls of model-local functions, nodes
// whose outputs are graph outputs (their names are the graph's interface), outputs whose
// size inference does not know, results over the size caps, and every node once memory ran
// out while folding.
#include <algorithm>
#include <new>
#include <stdexcept>
#include <unordered_set>

#include "bough/error.h"
#include "infer/infer.h"
#include "ops/evaluate.h"
#include "passes/fusion.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

// Two caps keep a small model from ballooning. Per node: a result may take this many bytes,
// or as many as its distinct inputs together, whichever is more (Expand of a scalar to
// 1 GiB stays a node, a transposed constant matrix is folded whatever its size; a Concat
// reading one input many times counts it once). Per model: what a fold adds is its result
// less the initializers only it read (dead once it is folded); a fold that adds bytes must
// leave the model's initializers within kModelBytes in all. The model's own initializers
// count, so the budget holds over every round of a pipeline (3,000 Expands of 1 MiB each
// in a 148 kB model fold 63 of them, not 2.9 GB), while folding that frees as much as it
// adds (a transposed weight) goes on in a model of any size, as do folds adding at most
// kSmallBytes (shapes computed from constants): a node folds once, so those add at most
// kSmallBytes per node of the file.
constexpr size_t kMaxGrowthBytes = size_t{1} << 20;
constexpr size_t kModelBytes = size_t{64} << 20;
constexpr size_t kSmallBytes = 1024;

// The bytes of a tensor of the inferred type `t`; -1 when its shape is not fully known.
int64_t static_bytes(const ir::Type& t) {
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return -1;
  size_t numel = 1;
  for (const ir::Dim& d : t.shape.dims) {
    if (!d.is_known() || __builtin_mul_overflow(numel, static_cast<size_t>(d.value), &numel))
      return -1;
  }
  return static_cast<int64_t>(elem_storage_bytes(t.elem, numel));
}

class Folder {
 public:
  explicit Folder(ir::Model& model)
      : model_(model), model_bytes_(initializer_bytes()), types_(model) {}

  int graph(ir::Graph& g) {
    const Readers readers(g);
    readers_ = &readers;
    std::unordered_set<const ir::Node*> folded;
    for (const auto& n : g.nodes) {
      try {
        if (fold(g, *n)) folded.insert(n.get());
      } catch (const std::bad_alloc&) {
        out_of_memory_ = true;  // no more folding; the node stays, for the run to compute
      } catch (const std::length_error&) {
        out_of_memory_ = true;
      }
    }
    erase_nodes(g, folded);
    return static_cast<int>(folded.size());
  }

 private:
  // The node's input values when all are constant and folding it is allowed.
  bool fold(ir::Graph& g, ir::Node& n) {
    if (out_of_memory_) return false;
    const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
    if (!def || !ops::evaluable(*def) || calls_local_function(model_, n)) return false;
    std::vector<Value> inputs;
    std::unordered_set<const ir::Edge*> distinct;
    size_t input_bytes = 0, freed_bytes = 0;
    for (const ir::Edge* e : n.inputs) {
      const Tensor* t = e ? constant_value(e) : nullptr;
      if (e && !t) return false;
      inputs.push_back(t ? Value(*t) : Value());
      if (t && distinct.insert(e).second) {
        input_bytes += t->nbytes();
        if (e->origin == ir::Edge::Origin::Initializer && e->graph == &g && readers_->only_by(e, n))
          freed_bytes += t->nbytes();
      }
    }
    for (const ir::Edge* e : n.outputs)
      if (e && readers_->is_output(e)) return false;
    // A Constant's value is in the model already: it cannot grow it.
    const bool grows = n.op_type != "Constant";
    if (grows && !within_cap(n, std::max(kMaxGrowthBytes, input_bytes))) return false;
    std::vector<Value> outputs;
    try {
      int64_t opset = ops::node_opset(&model_, nullptr, n);
      ops::NodeView view(n, opset, ops::since_of(*def, opset), nullptr,
                         model_.path + ": " + g.path() + "/" + n.label());
      outputs = ops::evaluate(*def, view, inputs);
    } catch (const Error&) {
      return false;  // left for the run to report: the node may never run
    }
    size_t output_bytes = 0;
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      if (n.outputs[o] && (o >= outputs.size() || !outputs[o].is_tensor())) return false;
      if (n.outputs[o]) output_bytes += outputs[o].tensor().nbytes();
    }
    const size_t adds = output_bytes > freed_bytes ? output_bytes - freed_bytes : 0;
    if (grows && adds > kSmallBytes && model_bytes_ + adds > kModelBytes) return false;
    if (grows) model_bytes_ += adds;
    g.initializers.reserve(g.initializers.size() + n.outputs.size());  // no throw half-way
    for (size_t o = 0; o < n.outputs.size(); ++o)
      if (ir::Edge* e = n.outputs[o]) become_initializer(g, e, outputs[o].tensor());
    return true;
  }

  size_t initializer_bytes() {
    size_t bytes = 0;
    for_each_graph(model_, [&](ir::Graph& g) {
      for (const ir::Edge* e : g.initializers)
        if (e->data) bytes += e->data->nbytes();
    });
    return bytes;
  }

  // Whether the node's outputs, as inference sizes them, fit in `cap` bytes.
  bool within_cap(const ir::Node& n, size_t cap) {
    size_t total = 0;
    for (const ir::Edge* e : n.outputs) {
      if (!e) continue;
      int64_t bytes = static_bytes(types_.all().type_of(e));
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

  ir::Model& model_;
  size_t model_bytes_;                // the initializers' bytes, as the folds so far leave them
  const Readers* readers_ = nullptr;  // of the graph being folded
  // Inferred once, and only when a node is a candidate: most rounds find none.
  ModelTypes types_;
  bool out_of_memory_ = false;
};

}  // namespace

int fold_constants(ir::Model& model) {
  Folder folder(model);
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += folder.graph(g); });
  return folded;
}

}  // namespace bough::passes
