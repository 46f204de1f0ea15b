// Rewiring readers in the IR: what a rewrite does after it replaces values, kept where both
// the passes and the format writers (formats/onnx/variables.cc) reach it. A capture's name is
// its outer value's name (the ONNX writer refers to captures by name), and an owner node's
// implicit_inputs are the outer values its subgraphs capture; these keep both true.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"

namespace bough::ir {

// The graphs a node's attributes hold.
std::vector<Graph*> subgraphs(const Node& node);

using EdgeMap = std::unordered_map<const Edge*, Edge*>;

// Renames each capture of `g` in `renamed` (whose outer values a rewrite changed) to its
// outer value's name, and the captures nested below that read them: one walk of g's nodes
// for all of them.
void rename_captures(Graph& g, const std::unordered_set<const Edge*>& renamed);

// Makes every reader in `graph` of a key of `map` read its value instead: node inputs,
// graph outputs and the captures of nested subgraphs (a subgraph that already captures the
// new value reads that capture). Keys and values belong to `graph`; one walk of the graph,
// and of the subgraphs that capture a key, however many values are replaced.
void replace_uses(Graph& graph, const EdgeMap& map);

}  // namespace bough::ir
