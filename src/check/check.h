// The structural check of a model: the rules of the ONNX IR and of the control-flow
// operators that hold whatever the values turn out to be. Sessions run it before planning,
// so an invalid model never runs; `bough check` prints what it finds.
#pragma once

#include "check/diagnostics.h"
#include "ir/graph.h"

namespace bough::check {

struct CheckOptions {
  // An opset newer than bough knows is an error (its operators may mean something else);
  // with this it is only a warning.
  bool allow_newer_opset = false;
  // Nodes the file lists out of topological order (the reader sorts them): an error for
  // `bough check`, since the ONNX IR requires the order; a warning when a model is about to
  // run, which it does in sorted order (as ONNX Runtime does).
  bool unsorted_nodes_are_errors = true;
  // A declared shape that contradicts what a subgraph yields (an If output declared [2] for
  // branches of [2] and [3]): an error for `bough check`; a warning when a model is about to
  // run, by the shapes it meets.
  bool shape_conflicts_are_errors = true;
};

// Checks the main graph, every nested subgraph and every model-local function, and returns
// every problem found.
Diagnostics check_model(const ir::Model& model, const CheckOptions& options = {});

}  // namespace bough::check
