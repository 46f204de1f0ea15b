// The model as the JSON that the page of `bough show -o view.html` draws (show_page.h).
// One entry per graph (main first, then every If branch and Loop/Scan body, nested), each
// with its items and edges and each item's place from layer_layout (show_layout.h):
//
//   {"open": levels of subgraphs the page opens at first,
//    "graphs": [{"path", "attr", "owner": [graph, item] | null, "nodes",
//                "caps": [[value, port item]...],   values read from the enclosing graph
//                "items": [{"k": "in"|"cap"|"op"|"out", "name", "type", "r", "o",
//                           for "op": "op", "domain", "version", "attrs": [[name, text]...],
//                           "consts": [[input, summary]...], "ins"/"outs": [[name, type]...],
//                           "subs": [graph...]}...],
//                "edges": [[from, to, value, type] | [from, to, value, type, sub, port]...]}]}
//
// A six-element edge is a capture: `value` read by subgraph `sub` of item `to`, entering it
// at item `port` of that subgraph. Initializers (and inputs with a default) are not drawn:
// they are summarized (type, min/max, first values) in "consts" of the nodes that read them.
// Every string from the model is JSON-escaped, and `<` written as \u003c so that the text
// can sit inside a <script> element.
#pragma once

#include <string>

#include "ir/graph.h"

namespace bough::cli {

std::string model_view_json(const ir::Model& model, int open_levels);

}  // namespace bough::cli
