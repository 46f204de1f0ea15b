#include "graph_dot.h"

#include <algorithm>
#include <map>

#include "ir/printer.h"
#include "short_names.h"
#include "util/json.h"

namespace bough::cli {

namespace {
namespace graph_dot_op {

// A DOT string literal (JSON's escaping is valid DOT).
std::string quote(const std::string& s) { return util::json_string(s); }

class DotWriter {
 public:
  explicit DotWriter(int max_depth) : max_depth_(max_depth) {}

  std::string write(const ir::Model& model) {
    graph(*model.graph, "  ");
    return finish();
  }

  std::string write(const std::vector<const ir::Graph*>& graphs) {
    level_ = -1;  // the graphs drawn are level 0, as the main graph is
    for (const ir::Graph* g : graphs) cluster(*g->owner, "", g->owner_attr, *g, "  ");
    return finish();
  }

 private:
  std::string finish() const {
    // Edges between clusters go last, at the top level: an edge statement inside a cluster
    // would pull its other end into that cluster.
    return "digraph model {\n  rankdir=TB;\n  compound=true;\n"
           "  node [fontname=\"Helvetica\", fontsize=10];\n"
           "  edge [fontname=\"Helvetica\", fontsize=9];\n" +
           out_ + crossing_ +
           (legend_.empty() ? ""
                            : "  legend [shape=note, label=" + quote("names" + legend_) + "];\n") +
           "}\n";
  }

  // The captures of `g` that its nodes or outputs read, each once, in the order first read.
  static std::vector<const ir::Edge*> read_captures(const ir::Graph& g) {
    std::vector<const ir::Edge*> read;
    auto note = [&](const ir::Edge* e) {
      if (e && e->origin == ir::Edge::Origin::Capture && !folded_into_readers(e) &&
          std::find(read.begin(), read.end(), e) == read.end())
        read.push_back(e);
    };
    for (const auto& n : g.nodes)
      for (const ir::Edge* in : n->inputs) note(in);
    for (const ir::Edge* o : g.outputs) note(o);
    return read;
  }

  // A value name as the labels show it: one over kLongName characters as an alias %~N, in
  // order of first appearance, explained in a legend box (as `bough info` prints them).
  std::string shown(const std::string& name) {
    if (name.size() <= kLongName) return name;
    auto [at, added] = aliases_.try_emplace(name, "%~" + std::to_string(aliases_.size() + 1));
    if (added) legend_ += "\n" + at->second + " = " + name;
    return at->second;
  }

  std::string next_id(const char* prefix) { return prefix + std::to_string(next_++); }

  void graph(const ir::Graph& g, const std::string& pad) {
    for (const ir::Edge* e : g.inputs) {
      if (e->data) continue;  // an input with a default: folded like an initializer
      const std::string id = next_id("v");
      source_[e] = id;
      out_ += pad + id +
              " [shape=ellipse, label=" + quote(shown(e->name) + "\n" + ir::to_string(e->type)) +
              "];\n";
    }
    for (const ir::Edge* c : read_captures(g)) port(c, pad);
    for (const auto& n : g.nodes) node(*n, pad);
    for (const ir::Edge* e : g.outputs) {
      const std::string id = next_id("o");
      out_ += pad + id + " [shape=ellipse, style=filled, fillcolor=\"#eeeeee\", label=" +
              quote(shown(e->name) + "\n" + ir::to_string(e->type)) + "];\n";
      edge(e, id, pad);
    }
  }

  // Capture `c` entering its cluster: a port node inside, fed by one capture edge from the
  // nearest enclosing value drawn (a port of an enclosing cluster, or the value itself).
  void port(const ir::Edge* c, const std::string& pad) {
    const std::string id = next_id("c");
    out_ += pad + id +
            " [shape=ellipse, style=dashed, color=\"#3366cc\", label=" + quote(shown(c->name)) +
            "];\n";
    crossing_ += "  " + outer_source(c) + " -> " + id + " [id=\"capture_" +
                 std::to_string(captures_++) +
                 "\", style=dashed, color=\"#3366cc\", label=" + quote(shown(c->name)) + "];\n";
    source_[c] = id;
  }

  std::string outer_source(const ir::Edge* c) {
    for (const ir::Edge* e = c->outer; e; e = e->outer) {
      if (auto it = source_.find(e); it != source_.end()) return it->second;
      if (e->origin != ir::Edge::Origin::Capture) break;
    }
    // Not drawn: the picture is of subgraphs only and this value is outside them.
    const ir::Edge* from = captured_origin(c);
    const std::string id = next_id("x");
    crossing_ += "  " + id + " [shape=ellipse, style=dashed, label=" +
                 quote(shown(from->name) + "\n" + ir::to_string(from->type) + "\n(from outside)") +
                 "];\n";
    source_[from] = id;
    return id;
  }

  void node(const ir::Node& n, const std::string& pad) {
    const std::string id = next_id("n");
    std::string label = n.label();
    for (const ir::Edge* in : n.inputs) {
      const ir::Edge* from = captured_origin(in);
      if (from && from->data) label += "\n" + shown(in->name) + ": " + ir::to_string(from->type);
    }
    out_ += pad + id + " [shape=box, style=rounded, label=" + quote(label) + "];\n";
    for (const ir::Edge* in : n.inputs) edge(in, id, pad);
    for (const ir::Edge* o : n.outputs)
      if (o) source_[o] = id;
    const bool fold = max_depth_ >= 0 && level_ + 1 > max_depth_;
    for (const auto& a : n.attributes) {
      if (a.g) (fold ? folded_box(n, id, a.name, *a.g, pad) : cluster(n, id, a.name, *a.g, pad));
      for (size_t i = 0; i < a.graphs.size(); ++i) {
        const std::string attribute = a.name + "[" + std::to_string(i) + "]";
        fold ? folded_box(n, id, attribute, *a.graphs[i], pad)
             : cluster(n, id, attribute, *a.graphs[i], pad);
      }
    }
  }

  // A subgraph below --depth: one box with its node count and the values it captures, each
  // entering as a capture edge.
  void folded_box(const ir::Node& owner, const std::string& owner_id, const std::string& attribute,
                  const ir::Graph& g, const std::string& pad) {
    const std::string id = next_id("f");
    const size_t nodes = ir::count_nodes(g);
    std::string label = owner.label() + ": " + attribute + "\n" + std::to_string(nodes) +
                        (nodes == 1 ? " node" : " nodes") + " (folded)";
    std::vector<const ir::Edge*> read;
    for (const ir::Edge* c : g.captures)
      if (!folded_into_readers(c)) read.push_back(c);
    for (size_t i = 0; i < read.size(); ++i)
      label += (i ? ", " : "\ncaptures ") + shown(read[i]->name);
    out_ += pad + id + " [shape=box, style=\"dashed,rounded\", label=" + quote(label) + "];\n";
    crossing_ += "  " + owner_id + " -> " + id + " [style=dotted, arrowhead=none];\n";
    for (const ir::Edge* c : read)
      crossing_ += "  " + outer_source(c) + " -> " + id + " [id=\"capture_" +
                   std::to_string(captures_++) +
                   "\", style=dashed, color=\"#3366cc\", label=" + quote(shown(c->name)) + "];\n";
  }

  // `owner_id` is the owner's DOT node, "" when the owner is not drawn.
  void cluster(const ir::Node& owner, const std::string& owner_id, const std::string& attribute,
               const ir::Graph& g, const std::string& pad) {
    const std::string name = next_id("cluster_"), anchor = next_id("a");
    out_ += pad + "subgraph " + name + " {\n" + pad +
            "  label=" + quote(owner.label() + ": " + attribute) + ";\n" + pad +
            "  style=rounded; color=\"#888888\";\n" + pad + "  " + anchor +
            " [shape=point, style=invis];\n";
    // A dotted line from the node to the border of its subgraph.
    if (!owner_id.empty())
      crossing_ += "  " + owner_id + " -> " + anchor +
                   " [style=dotted, arrowhead=none, lhead=" + name + "];\n";
    ++level_;
    graph(g, pad + "  ");
    --level_;
    out_ += pad + "}\n";
  }

  // An edge carrying `value` into DOT node `to` (a capture from its port); none for
  // initializers (in the label) and omitted optional inputs.
  void edge(const ir::Edge* value, const std::string& to, const std::string& pad) {
    if (folded_into_readers(value)) return;
    auto it = source_.find(value);
    if (it == source_.end()) return;
    out_ += pad + it->second + " -> " + to + " [label=" + quote(shown(value->name)) + "];\n";
  }

  std::string out_, crossing_, legend_;
  std::map<std::string, std::string> aliases_;     // long name -> %~N
  std::map<const ir::Edge*, std::string> source_;  // value -> the DOT node that makes it
  int next_ = 0, captures_ = 0;
  int max_depth_ = -1, level_ = 0;  // levels of subgraphs drawn (-1: all); the current one
};

}  // namespace graph_dot_op
}  // namespace

const ir::Edge* captured_origin(const ir::Edge* e) {
  while (e && e->origin == ir::Edge::Origin::Capture && e->outer) e = e->outer;
  return e;
}

bool folded_into_readers(const ir::Edge* value) {
  const ir::Edge* from = captured_origin(value);
  return !from || from->data;
}

std::string graph_to_dot(const ir::Model& model, int max_depth) {
  using namespace graph_dot_op;
  return DotWriter(max_depth).write(model);
}

std::string subgraphs_to_dot(const std::vector<const ir::Graph*>& graphs, int max_depth) {
  using namespace graph_dot_op;
  return DotWriter(max_depth).write(graphs);
}

}  // namespace bough::cli
