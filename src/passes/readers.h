// Who reads each value of a graph, counted in one walk of it: the question "may this value
// be fused or folded away?" that passes ask of many candidates (scanning the graph for each
// one is quadratic on a graph of thousands of them). The counts are of the graph as the walk
// found it: a pass that moves reads onto a new node leaves them with the old one, so the
// index never calls a value read by one node when it is read by more. Counted at the first
// question: most passes find no candidate in most graphs and never ask.
#pragma once

#include <optional>
#include <unordered_map>

#include "ir/graph.h"

namespace bough::passes {

class Readers {
 public:
  explicit Readers(const ir::Graph& g) : graph_(g) {}
  const ir::Graph& graph() const { return graph_; }
  // Whether `e` is read exactly once in the graph, by one input of `reader`, and by nothing
  // else: no other node input, no graph output, no capture of a nested subgraph.
  bool only_by(const ir::Edge* e, const ir::Node& reader) const;
  // The node reading `e` when only_by() holds for it; null otherwise.
  ir::Node* only_reader(const ir::Edge* e) const;
  bool is_output(const ir::Edge* e) const;
  // Whether `e` is read by exactly `count` node inputs and by nothing else (no graph output,
  // no capture): with the readers known to read it once each, that they are all of them.
  bool read_only_as_inputs(const ir::Edge* e, int count) const;

 private:
  struct Reads {
    int inputs = 0;  // node inputs reading the value
    bool output = false;
    bool captured = false;     // by a subgraph of a node
    ir::Node* last = nullptr;  // the last node reading it as an input
  };
  // What the graph does with `e`; null when nothing reads it.
  const Reads* reads_of(const ir::Edge* e) const;

  const ir::Graph& graph_;
  mutable std::optional<std::unordered_map<const ir::Edge*, Reads>> reads_;
};

}  // namespace bough::passes
