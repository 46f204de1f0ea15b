// The model as a Graphviz DOT picture for `bough show`: every If branch and Loop/Scan body a
// nested cluster labelled with its node and attribute (then_branch, else_branch, body),
// captures drawn as dashed edges (id "capture_N") from the outer value into the cluster,
// initializers folded into the label of the nodes that read them.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::cli {

std::string graph_to_dot(const ir::Model& model);

}  // namespace bough::cli
