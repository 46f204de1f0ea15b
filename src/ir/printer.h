// Text form of the IR, for `bough info` and golden tests.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::ir {

// `max_depth`: how many levels of subgraphs (If branches, Loop and Scan bodies) to print in
// full; deeper ones are folded to their name and node count. -1: all.
std::string print_model(const Model& model, int max_depth = -1);
std::string print_graph(const Graph& graph, int indent = 0);
// An attribute's value as print_model writes it after `name = `: `[1,2]`, `"same"`, `float`
// for an element-type attribute (Cast's `to`), `tensor(float)[3]`, `@x` for a reference to
// the calling function's attribute; "a graph" or "N graphs" for subgraphs.
std::string attribute_value(const Node& n, const Attribute& a);
// Nodes in a graph and all its subgraphs.
size_t count_nodes(const Graph& g);

}  // namespace bough::ir
