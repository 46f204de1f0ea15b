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

// The value a capture reads, through captures of captures (`e` itself when not a capture).
const ir::Edge* captured_origin(const ir::Edge* e);
// An initializer or an input with a default value, at the capture's origin: not drawn, but
// summarized in the nodes that read it (in .html) or folded into their labels.
bool folded_into_readers(const ir::Edge* value);

// `max_depth`: how many levels of subgraphs to draw as clusters; deeper ones are folded to a
// box with their node count and captures (-1: none folded).
std::string graph_to_dot(const ir::Model& model, int max_depth = -1);
// Only `graphs` (subgraphs of one model), each as a cluster with its nested subgraphs; the
// outer values they capture are drawn as inputs coming from outside, labelled with the
// outer value's name.
// `graphs` are level 0 for `max_depth`.
std::string subgraphs_to_dot(const std::vector<const ir::Graph*>& graphs, int max_depth = -1);

}  // namespace bough::cli
