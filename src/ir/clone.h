// A deep copy of a model: graphs, subgraphs, functions and their values, with every edge
// pointer (inputs, captures' outer values, producers) pointing into the copy. Tensors share
// their buffers with the original (they are never written in place).
#pragma once

#include <memory>

#include "ir/graph.h"

namespace bough::ir {

std::unique_ptr<Model> clone_model(const Model& model);

// Copies what describes a value — type, data, doc string, metadata, whether its type was
// declared — from `from` to `to`; not its place in a graph (origin, producer, outer).
void copy_value_details(const Edge& from, Edge& to);

}  // namespace bough::ir
