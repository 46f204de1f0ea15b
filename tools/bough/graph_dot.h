// The model as a Graphviz DOT picture for `bough show`: every If branch and Loop/Scan body a
// nested cluster labelled with its node and attribute (then_branch, else_branch, body),
// initializers folded into the label of the nodes that read them. A value a subgraph reads
// from an enclosing graph enters its cluster once, as a dashed capture edge (id "capture_N")
// from the outer value to a dashed port node inside the cluster, which feeds the readers.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace bough::cli {

std::string graph_to_dot(const ir::Model& model);
// Only `graphs` (subgraphs of one model), each as a cluster with its nested subgraphs; the
// outer values they capture are drawn as inputs coming from outside, labelled with the
// outer value's name.
std::string subgraphs_to_dot(const std::vector<const ir::Graph*>& graphs);

}  // namespace bough::cli
