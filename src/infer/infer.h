// Type and shape inference: the type of every value of a model — main graph, nested
// subgraphs, function bodies — from its inputs, initializers and each operator's schema
// (ops/schema.h), with symbolic dims carried and small shape computations propagated.
#pragma once

#include <unordered_map>
#include <vector>

#include "bough/tensor.h"
#include "check/diagnostics.h"
#include "ir/graph.h"

namespace bough::infer {

struct InferOptions {
  // A declared shape that inference contradicts: an error for `bough check`; a warning when
  // a model is about to run, which executes it by the runtime shapes (as ONNX Runtime does).
  bool shape_conflicts_are_errors = true;
  // A type outside the list of the node's schema row that the operator's newest row allows
  // (an int64 Constant at opset 6, as PyTorch exported): an error for `bough check`; a
  // warning when a model is about to run, since the kernel (written for every row) takes it.
  bool old_type_lists_are_errors = true;
  // Whether a node output's declared type fills in what inference leaves open. Off, the
  // types are inference's alone (how tests measure it); declarations are checked either way.
  bool refine_with_declarations = true;
};

class Inferred {
 public:
  // What inference found for `e`, refined by what the model declares; undefined when
  // neither knows.
  const ir::Type& type_of(const ir::Edge* e) const;
  // The value of `e` when it is known before running (initializers, constants, folded
  // shape computations); null otherwise.
  const Tensor* value_of(const ir::Edge* e) const;

 private:
  friend class Walker;
  friend std::vector<ir::Type> infer_node(const ir::Model&, const ir::Node&, const Inferred&,
                                          check::Diagnostics&);
  std::unordered_map<const ir::Edge*, ir::Type> types_;
  std::unordered_map<const ir::Edge*, Tensor> values_;
};

// Writes what inference found into the model's values (Edge::type), declared or not: for
// printing the model with its types, or writing them out as value_info.
void annotate(ir::Model& model, const Inferred& types);

// Infers every value of `model`; type errors (an input of a type its operator does not
// take, a declared type that contradicts the inferred one) go to `out`, each at its node.
Inferred infer_model(const ir::Model& model, check::Diagnostics& out,
                     const InferOptions& options = {});

// The types node `n` of `model` computes for its outputs from what `known` says of its
// inputs, by inference alone (no declaration fills in); what a rewrite checks a new node
// against. Problems found go to `out`.
std::vector<ir::Type> infer_node(const ir::Model& model, const ir::Node& n, const Inferred& known,
                                 check::Diagnostics& out);

}  // namespace bough::infer
