// Text form of the IR, for `bough info` and golden tests.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::ir {

// `max_depth`: how many levels of subgraphs (If branches, Loop and Scan bodies) to print in
// full; deeper ones are folded to their name and node count. -1: all.
std::string print_model(const Model& model, int max_depth = -1);
std::string print_graph(const Graph& graph, int indent = 0);

}  // namespace bough::ir
