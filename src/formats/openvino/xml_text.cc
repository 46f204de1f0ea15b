// Serializes an XmlNet with pugixml, in the layout OpenVINO writes: layer attributes, then
// <data>, <input>/<output> ports, port maps, back edges and bodies.
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <string_view>

#include "formats/openvino/element_types.h"
#include "formats/openvino/xml_net.h"

namespace bough::openvino {

namespace {

// The port precision spelling: FP32, BF16, I64, BOOL, ...
std::string precision(ElemType t) {
  if (t == ElemType::Bool) return "BOOL";
  std::string name(ov_elem_name(t));
  if (name == "f16" || name == "f32" || name == "f64") name = "fp" + name.substr(1);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

void write_rt_info(pugi::xml_node parent, const std::string& text);

// OpenVINO's serializer gives every port a precision (UNSPECIFIED for a dynamic type), and
// its reader requires it on output ports; names go on output ports.
void write_port(pugi::xml_node parent, const XmlPort& p, bool output) {
  pugi::xml_node port = parent.append_child("port");
  port.append_attribute("id") = static_cast<long long>(p.id);
  port.append_attribute("precision") = p.u1     ? "BIN"
                                       : p.elem ? precision(*p.elem).c_str()
                                                : "UNSPECIFIED";
  if (output && !p.names.empty()) {
    std::string names;
    for (const std::string& n : p.names) {
      if (!names.empty()) names += ',';
      for (char c : n) names += c == ',' ? std::string("\\,") : std::string(1, c);
    }
    port.append_attribute("names") = names.c_str();
  }
  for (const ir::Dim& d : p.shape.dims)
    port.append_child("dim").text() = d.is_known() ? static_cast<long long>(d.value) : -1LL;
  write_rt_info(port, p.rt_info);
}

void write_entries(pugi::xml_node map, const char* kind, const std::vector<PortMapEntry>& entries) {
  for (const PortMapEntry& e : entries) {
    pugi::xml_node n = map.append_child(kind);
    n.append_attribute("external_port_id") = static_cast<long long>(e.external_port_id);
    n.append_attribute("internal_layer_id") = static_cast<long long>(e.internal_layer_id);
    if (e.axis) {
      n.append_attribute("axis") = static_cast<long long>(*e.axis);
      n.append_attribute("start") = static_cast<long long>(e.start);
      n.append_attribute("end") = static_cast<long long>(e.end);
      n.append_attribute("stride") = static_cast<long long>(e.stride);
      n.append_attribute("part_size") = static_cast<long long>(e.part_size);
    }
    if (!e.purpose.empty()) n.append_attribute("purpose") = e.purpose.c_str();
  }
}

void write_net(pugi::xml_node parent, const XmlNet& net);

// Appends the <rt_info> element kept as text (nothing when `text` is empty). The text is
// data: only an <rt_info> element's content is copied, into an <rt_info> element, so no
// metadata can add a body, a port map or anything else to the layer.
void write_rt_info(pugi::xml_node parent, const std::string& text) {
  pugi::xml_document rt;
  if (text.empty() || !rt.load_string(text.c_str())) return;
  pugi::xml_node root = rt.document_element();
  if (std::string_view(root.name()) != "rt_info") return;
  pugi::xml_node copy = parent.append_child("rt_info");
  for (pugi::xml_attribute a : root.attributes()) copy.append_copy(a);
  for (pugi::xml_node c : root.children()) copy.append_copy(c);
}

void write_layer(pugi::xml_node layers, const XmlLayer& l) {
  pugi::xml_node n = layers.append_child("layer");
  n.append_attribute("id") = static_cast<long long>(l.id);
  n.append_attribute("name") = l.name.c_str();
  n.append_attribute("type") = l.type.c_str();
  n.append_attribute("version") = l.version.c_str();
  if (!l.data.empty()) {
    pugi::xml_node data = n.append_child("data");
    for (const auto& [k, v] : l.data) data.append_attribute(k.c_str()) = v.c_str();
  }
  // The layer's own rt_info comes before its ports, as OpenVINO's serializer puts it.
  write_rt_info(n, l.rt_info);
  if (!l.inputs.empty()) {
    pugi::xml_node in = n.append_child("input");
    for (const XmlPort& p : l.inputs) write_port(in, p, false);
  }
  if (!l.outputs.empty()) {
    pugi::xml_node out = n.append_child("output");
    for (const XmlPort& p : l.outputs) write_port(out, p, true);
  }
  std::set<std::string> maps;
  for (const auto& [tag, e] : l.input_maps) maps.insert(tag);
  for (const auto& [tag, e] : l.output_maps) maps.insert(tag);
  for (const std::string& tag : maps) {
    pugi::xml_node map = n.append_child(tag.c_str());
    if (l.input_maps.count(tag)) write_entries(map, "input", l.input_maps.at(tag));
    if (l.output_maps.count(tag)) write_entries(map, "output", l.output_maps.at(tag));
  }
  if (!l.back_edges.empty()) {
    pugi::xml_node back = n.append_child("back_edges");
    for (const auto& [from, to] : l.back_edges) {
      pugi::xml_node e = back.append_child("edge");
      e.append_attribute("from-layer") = static_cast<long long>(from);
      e.append_attribute("from-port") = 0;
      e.append_attribute("to-layer") = static_cast<long long>(to);
      e.append_attribute("to-port") = 0;
    }
  }
  for (const auto& [tag, body] : l.bodies) write_net(n.append_child(tag.c_str()), *body);
}

void write_net(pugi::xml_node parent, const XmlNet& net) {
  pugi::xml_node layers = parent.append_child("layers");
  for (const XmlLayer& l : net.layers) write_layer(layers, l);
  pugi::xml_node edges = parent.append_child("edges");
  for (const XmlEdge& e : net.edges) {
    pugi::xml_node n = edges.append_child("edge");
    n.append_attribute("from-layer") = static_cast<long long>(e.from_layer);
    n.append_attribute("from-port") = static_cast<long long>(e.from_port);
    n.append_attribute("to-layer") = static_cast<long long>(e.to_layer);
    n.append_attribute("to-port") = static_cast<long long>(e.to_port);
  }
  write_rt_info(parent, net.rt_info);
}

}  // namespace

std::string xml_text(const XmlNet& net) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  pugi::xml_node root = doc.append_child("net");
  root.append_attribute("name") = net.name.c_str();
  root.append_attribute("version") = 11;
  write_net(root, net);
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace bough::openvino
