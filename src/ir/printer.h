// Text form of the IR, for `bough info` and golden tests.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::ir {

std::string print_model(const Model& model);
std::string print_graph(const Graph& graph, int indent = 0);

}  // namespace bough::ir
