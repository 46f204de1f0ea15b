#include "show_view.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "graph_dot.h"
#include "ir/printer.h"
#include "outputs.h"
#include "show_layout.h"
#include "util/json.h"

namespace bough::cli {

namespace {
namespace show_view_op {

std::string quote(const std::string& s) { return util::json_string(s); }

// ["a", "b"] as a JSON array of strings.
std::string pair_json(const std::string& a, const std::string& b) {
  return "[" + quote(a) + "," + quote(b) + "]";
}

template <typename T>
std::string array_json(const std::vector<T>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}

// "tensor(float)[64,3]  min -1  max 1  mean 0  [0.1, 0.2, ...]", after `type`.
std::string constant_summary(const Tensor& t, std::string type) {
  std::string out = std::move(type);
  if (const std::string s = summary_text(t); !s.empty()) out += "  " + s;
  return out + "  " + preview_values(t, 6);
}

struct GraphView {
  std::string path, attr, owner = "null";
  size_t nodes = 0;
  std::vector<std::string> items, edges, caps;
  std::vector<std::pair<int, int>> links;  // every edge, for the layout
  std::map<const ir::Edge*, int> ports;    // capture -> its item
};

class ViewWriter {
 public:
  ViewWriter(const ir::Model& model, int open_levels) : model_(model), open_(open_levels) {}

  std::string write() {
    if (model_.graph) graph(*model_.graph, -1, -1);
    std::vector<std::string> out;
    for (const GraphView& v : graphs_) out.push_back(graph_json(v));
    std::string json =
        "{\"open\":" + std::to_string(std::max(open_, 0)) + ",\"graphs\":" + array_json(out) + "}";
    std::string safe;  // '<' occurs only inside strings, where \u003c means the same
    safe.reserve(json.size());
    for (char c : json) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return safe;
  }

 private:
  static std::string graph_json(const GraphView& v) {
    const std::vector<LayerPlace> place = layer_layout(v.items.size(), v.links);
    std::string items = "[";
    for (size_t i = 0; i < v.items.size(); ++i)
      items += (i ? "," : "") + v.items[i] + ",\"r\":" + std::to_string(place[i].rank) +
               ",\"o\":" + std::to_string(place[i].order) + "}";
    return "{\"path\":" + quote(v.path) + ",\"attr\":" + quote(v.attr) + ",\"owner\":" + v.owner +
           ",\"nodes\":" + std::to_string(v.nodes) + ",\"caps\":" + array_json(v.caps) +
           ",\"items\":" + items + "],\"edges\":" + array_json(v.edges) + "}";
  }

  // Item JSON is left open ("{...") for the place to be added.
  static std::string value_item(const char* kind, const ir::Edge& e) {
    return std::string("{\"k\":\"") + kind + "\",\"name\":" + quote(e.name) +
           ",\"type\":" + quote(ir::to_string(e.type));
  }

  static int add(GraphView& v, std::string item) {
    v.items.push_back(std::move(item));
    return static_cast<int>(v.items.size()) - 1;
  }

  static void link(GraphView& v, int from, int to, const ir::Edge& value, const std::string& more) {
    v.edges.push_back("[" + std::to_string(from) + "," + std::to_string(to) + "," +
                      quote(value.name) + "," + quote(ir::to_string(value.type)) + more + "]");
    v.links.emplace_back(from, to);
  }

  int graph(const ir::Graph& g, int parent, int owner_item) {
    const int index = static_cast<int>(graphs_.size());
    graphs_.emplace_back();
    GraphView v;
    v.path = g.path();
    v.attr = g.owner_attr;
    v.nodes = g.nodes.size();
    if (parent >= 0)
      v.owner = "[" + std::to_string(parent) + "," + std::to_string(owner_item) + "]";
    std::map<const ir::Edge*, int> source;  // value -> the item that makes it
    for (const ir::Edge* e : g.inputs)
      if (!e->data) source[e] = add(v, value_item("in", *e));
    for (const ir::Edge* c : g.captures)
      if (!folded_into_readers(c)) {
        source[c] = v.ports[c] = add(v, value_item("cap", *c));
        v.caps.push_back("[" + quote(c->name) + "," + std::to_string(source[c]) + "]");
      }
    for (const auto& n : g.nodes) node(*n, index, v, source);
    for (const ir::Edge* e : g.outputs) {
      const int item = add(v, value_item("out", *e));
      if (auto it = source.find(e); it != source.end() && !folded_into_readers(e))
        link(v, it->second, item, *e, "");
    }
    graphs_[static_cast<size_t>(index)] = std::move(v);
    return index;
  }

  void node(const ir::Node& n, int index, GraphView& v, std::map<const ir::Edge*, int>& source) {
    std::vector<std::string> attrs, consts, ins, outs, subs;
    for (const ir::Edge* in : n.inputs) {
      ins.push_back(in ? pair_json(in->name, ir::to_string(in->type)) : pair_json("", ""));
      if (in && folded_into_readers(in))
        if (const ir::Edge* from = captured_origin(in); from && from->data)
          consts.push_back(
              pair_json(in->name, constant_summary(*from->data, ir::to_string(from->type))));
    }
    for (const ir::Edge* o : n.outputs)
      outs.push_back(o ? pair_json(o->name, ir::to_string(o->type)) : pair_json("", ""));
    for (const auto& a : n.attributes)
      attrs.push_back(pair_json(
          a.name, a.kind == ir::Attribute::Kind::Tensor && a.ref_attr_name.empty()
                      ? constant_summary(a.t, ir::attribute_value(n, a))  // Constant's value
                      : ir::attribute_value(n, a)));
    const int item = static_cast<int>(v.items.size());
    // The subgraphs first: their captures become edges into this item.
    std::vector<const ir::Graph*> graphs;
    for (const auto& a : n.attributes) {
      if (a.g) graphs.push_back(a.g.get());
      for (const auto& sub : a.graphs) graphs.push_back(sub.get());
    }
    for (const ir::Graph* sub : graphs) {
      const int sub_index = graph(*sub, index, item);
      subs.push_back(std::to_string(sub_index));
      for (const ir::Edge* c : sub->captures) {
        if (folded_into_readers(c)) continue;
        auto from = source.find(c->outer);
        if (from == source.end()) continue;
        const int port = graphs_[static_cast<size_t>(sub_index)].ports.at(c);
        link(v, from->second, item, *c,
             "," + std::to_string(sub_index) + "," + std::to_string(port));
      }
    }
    for (const ir::Edge* in : n.inputs)
      if (in && !folded_into_readers(in))
        if (auto from = source.find(in); from != source.end()) link(v, from->second, item, *in, "");
    const std::string domain = n.domain.empty() ? "ai.onnx" : n.domain;
    add(v, "{\"k\":\"op\",\"name\":" + quote(n.name) + ",\"op\":" + quote(n.op_type) +
               ",\"domain\":" + quote(domain) + ",\"version\":" +
               std::to_string(model_.opset(n.domain)) + ",\"attrs\":" + array_json(attrs) +
               ",\"consts\":" + array_json(consts) + ",\"ins\":" + array_json(ins) +
               ",\"outs\":" + array_json(outs) + ",\"subs\":" + array_json(subs));
    for (const ir::Edge* o : n.outputs)
      if (o) source[o] = item;
  }

  const ir::Model& model_;
  int open_;
  std::vector<GraphView> graphs_;
};

}  // namespace show_view_op
}  // namespace

std::string model_view_json(const ir::Model& model, int open_levels) {
  using namespace show_view_op;
  return ViewWriter(model, open_levels).write();
}

}  // namespace bough::cli
