#include "formats/openvino/xml_net.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <iterator>
#include <pugixml.hpp>
#include <sstream>
#include <string_view>

#include "bough/error.h"
#include "formats/openvino/element_types.h"

namespace bough::openvino {

std::string XmlLayer::label() const {
  return type + " \"" + name + "\" (id " + std::to_string(id) + ")";
}

const std::string* XmlLayer::attr(const std::string& key) const {
  auto it = data.find(key);
  return it == data.end() ? nullptr : &it->second;
}

namespace {

// `node`'s child <rt_info> as XML text ("" when there is none).
std::string rt_info_text(const pugi::xml_node& node) {
  pugi::xml_node rt = node.child("rt_info");
  if (!rt) return "";
  std::ostringstream out;
  rt.print(out, "", pugi::format_raw);
  return out.str();
}

// Where in the file the parser is, spelled out only when an error names it (a string per
// layer would cost more than the layer).
struct Place {
  const std::string& base;
  std::string_view suffix;
  const XmlLayer* layer = nullptr;
  std::string str() const {
    return base + (layer ? "/" + layer->label() : std::string()) + std::string(suffix);
  }
};

class Parser {
 public:
  explicit Parser(int max_depth) : max_depth_(max_depth) {}

  std::unique_ptr<XmlNet> net(const pugi::xml_node& node, int64_t version, int depth,
                              const std::string& where);

 private:
  XmlLayer layer(const pugi::xml_node& node, int64_t version, int depth, const std::string& where);
  XmlPort port(const pugi::xml_node& node, const Place& where);
  int64_t integer(const pugi::xml_node& node, const char* attr, const Place& where);

  int max_depth_;
};

int64_t Parser::integer(const pugi::xml_node& node, const char* attr, const Place& where) {
  pugi::xml_attribute a = node.attribute(attr);
  if (!a)
    fail(ErrorKind::InvalidModel, where.str(),
         "<" + std::string(node.name()) + "> has no '" + attr + "' attribute");
  std::string_view s = a.value();
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    fail(ErrorKind::InvalidModel, where.str(),
         std::string(attr) + "=\"" + std::string(s) + "\" is not an integer");
  return v;
}

// A port's <dim> as OpenVINO's reader takes it (ir_deserializer.cpp, parse_generic_params:
// `std::stringstream(text) >> int64_t`, refused when that fails or gives less than -1): space
// before the number and a sign are allowed, and whatever follows the number is never read, so
// "1..10" passes as 1 and "?" is refused. OpenVINO uses port dims only to type operators it
// does not know and infers every other shape; bough takes a port's dims as the value's
// declared type, so a size followed by more text is read as unknown rather than as a size
// OpenVINO never asserts. -1 is a dynamic dim.
ir::Dim parse_dim(std::string_view s, const std::string& where) {
  size_t at = 0;
  while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
  if (at < s.size() && s[at] == '+') ++at;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data() + at, s.data() + s.size(), v);
  if (ec != std::errc() || v < -1 || (at > 0 && s[at - 1] == '+' && v < 0))
    fail(ErrorKind::InvalidModel, where,
         "dimension \"" + std::string(s) + "\" must be an integer of at least -1");
  const bool whole = std::all_of(
      end, s.data() + s.size(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  return v >= 0 && whole ? ir::Dim::known(v) : ir::Dim::unknown();
}

// A non-negative integer attribute of `node`, or nullopt when it has none.
std::optional<uint64_t> size_attr(const pugi::xml_node& node, const char* key,
                                  const std::string& where) {
  pugi::xml_attribute a = node.attribute(key);
  if (!a) return std::nullopt;
  std::string_view s = a.value();
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    fail(ErrorKind::InvalidModel, where,
         std::string(key) + "=\"" + std::string(s) + "\" is not a non-negative integer");
  return v;
}

// The <pre-process> block as OpenVINO's reader takes it: each <channel> (its id, else the
// count of channels before it) with a <mean> of a value or of an offset and size in the .bin.
std::optional<PreProcess> pre_process(const pugi::xml_node& node, const std::string& where) {
  if (!node) return std::nullopt;
  PreProcess pp;
  pp.input = node.attribute("reference-layer-name").value();
  pp.input.erase(0, pp.input.find_first_not_of(" \t\n\r"));
  pp.input.erase(pp.input.find_last_not_of(" \t\n\r") + 1);
  uint64_t next_channel = 0;
  for (pugi::xml_node channel : node.children("channel")) {
    PreProcess::Mean m;
    const uint64_t counted = next_channel++;
    m.channel = size_attr(channel, "id", where).value_or(counted);
    pugi::xml_node mean = channel.child("mean");
    if (!mean) continue;
    if (!mean.attribute("value") && !mean.attribute("size"))
      fail(ErrorKind::InvalidModel, where, "a <mean> needs a value or a size");
    if (pugi::xml_attribute v = mean.attribute("value")) {
      char* end = nullptr;
      m.value = std::strtod(v.value(), &end);
      if (*v.value() == '\0' || *end != '\0')
        fail(ErrorKind::InvalidModel, where,
             "mean value \"" + std::string(v.value()) + "\" is not a number");
    }
    m.size = size_attr(mean, "size", where);
    m.offset = size_attr(mean, "offset", where);
    pp.means.push_back(m);
  }
  return pp;
}

// Whether OpenVINO's reader has the opset a layer's `version` names: "opsetN", or
// "experimental"/"extension" (the operators it moved into opset6).
bool known_opset(std::string_view version) {
  if (version == "experimental" || version == "extension") return true;
  if (version.substr(0, 5) != "opset" || version.size() == 5 || version.size() > 8) return false;
  return std::all_of(version.begin() + 5, version.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// `names` is a comma-separated list in which a literal comma is written "\,".
std::vector<std::string> split_names(std::string_view s) {
  std::vector<std::string> names;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == ',') {
      cur += ',';
      ++i;
    } else if (s[i] == ',') {
      if (!cur.empty()) names.push_back(cur);
      cur.clear();
    } else {
      cur += s[i];
    }
  }
  if (!cur.empty()) names.push_back(cur);
  return names;
}

XmlPort Parser::port(const pugi::xml_node& node, const Place& where) {
  XmlPort p;
  p.id = integer(node, "id", where);
  if (pugi::xml_attribute prec = node.attribute("precision");
      prec && !is_dynamic_elem(prec.value())) {
    p.elem = elem_from_ov(prec.value());
    if (!p.elem)
      fail(ErrorKind::Unsupported, where.str(),
           "port " + std::to_string(p.id) + " has element type '" + prec.value() +
               "', which bough does not support");
  }
  // OpenVINO's serializer writes no <dim> both for a scalar and for a dynamic rank (it
  // infers shapes again on reading); only a Parameter's or Const's `shape` says which.
  for (pugi::xml_node d : node.children("dim"))
    p.shape.dims.push_back(parse_dim(d.text().get(), where.str()));
  p.shape.rank_known = !p.shape.dims.empty();
  p.names = split_names(node.attribute("names").value());
  p.rt_info = rt_info_text(node);
  return p;
}

XmlLayer Parser::layer(const pugi::xml_node& node, int64_t version, int depth,
                       const std::string& where) {
  XmlLayer l;
  l.id = integer(node, "id", Place{where, " <layer>"});
  l.name = node.attribute("name").value();
  l.type = node.attribute("type").value();
  l.version = node.attribute("version").value();
  const Place place{where, "", &l};
  if (l.type.empty()) fail(ErrorKind::InvalidModel, place.str(), "the layer has no type");
  if (!l.version.empty() && !known_opset(l.version))
    fail(ErrorKind::InvalidModel, place.str(), "unsupported opset \"" + l.version + "\"");
  for (pugi::xml_attribute a : node.child("data").attributes()) l.data[a.name()] = a.value();
  for (pugi::xml_node p : node.child("input").children("port")) l.inputs.push_back(port(p, place));
  for (pugi::xml_node p : node.child("output").children("port"))
    l.outputs.push_back(port(p, place));
  l.rt_info = rt_info_text(node);
  for (pugi::xml_node child : node.children()) {
    std::string tag = child.name();
    if (tag == "data" || tag == "input" || tag == "output" || tag == "rt_info") continue;
    const std::string at = place.str();
    bool repeated =
        (tag == "body" || tag == "then_body" || tag == "else_body" || tag == "port_map" ||
         tag == "then_port_map" || tag == "else_port_map" || tag == "back_edges") &&
        child.previous_sibling(tag.c_str());
    if (repeated) fail(ErrorKind::InvalidModel, at, "<" + tag + "> appears twice");
    if (tag == "body" || tag == "then_body" || tag == "else_body") {
      if (depth + 1 > max_depth_)
        fail(ErrorKind::Unsupported, at,
             "bodies are nested more than " + std::to_string(max_depth_) + " deep");
      l.bodies[tag] = net(child, version, depth + 1, at + "/" + tag);
    } else if (tag == "port_map" || tag == "then_port_map" || tag == "else_port_map") {
      auto& ins = l.input_maps[tag];
      auto& outs = l.output_maps[tag];
      for (pugi::xml_node e : child.children()) {
        std::string kind = e.name();
        if (kind != "input" && kind != "output") continue;
        PortMapEntry m;
        const std::string suffix = "/" + tag;
        const Place w{where, suffix, &l};
        m.external_port_id = integer(e, "external_port_id", w);
        m.internal_layer_id = integer(e, "internal_layer_id", w);
        if (e.attribute("axis")) m.axis = integer(e, "axis", w);
        if (e.attribute("start")) m.start = integer(e, "start", w);
        if (e.attribute("end")) m.end = integer(e, "end", w);
        if (e.attribute("stride")) m.stride = integer(e, "stride", w);
        if (e.attribute("part_size")) m.part_size = integer(e, "part_size", w);
        m.purpose = e.attribute("purpose").value();
        (kind == "input" ? ins : outs).push_back(m);
      }
    } else if (tag == "back_edges") {
      for (pugi::xml_node e : child.children("edge"))
        l.back_edges.emplace_back(integer(e, "from-layer", Place{where, "/back_edges", &l}),
                                  integer(e, "to-layer", Place{where, "/back_edges", &l}));
    }
  }
  return l;
}

std::unique_ptr<XmlNet> Parser::net(const pugi::xml_node& node, int64_t version, int depth,
                                    const std::string& where) {
  auto n = std::make_unique<XmlNet>();
  n->name = node.attribute("name").value();
  n->version = version;
  // rt_info carries nothing bough runs; it is kept as text for writing back.
  n->rt_info = rt_info_text(node);
  // Counted first: a layer is a large object, and growing the vector would move them all.
  auto layer_nodes = node.child("layers").children("layer");
  n->layers.reserve(static_cast<size_t>(std::distance(layer_nodes.begin(), layer_nodes.end())));
  for (pugi::xml_node l : layer_nodes) n->layers.push_back(layer(l, version, depth, where));
  auto edge_nodes = node.child("edges").children("edge");
  n->edges.reserve(static_cast<size_t>(std::distance(edge_nodes.begin(), edge_nodes.end())));
  const Place w{where, " <edge>"};
  for (pugi::xml_node e : edge_nodes) {
    n->edges.push_back({integer(e, "from-layer", w), integer(e, "from-port", w),
                        integer(e, "to-layer", w), integer(e, "to-port", w)});
  }
  return n;
}

}  // namespace

std::unique_ptr<XmlNet> parse_xml_net(const std::string& text, const std::string& path,
                                      int max_depth) {
  pugi::xml_document doc;
  pugi::xml_parse_result ok = doc.load_buffer(text.data(), text.size());
  if (!ok)
    fail(ErrorKind::InvalidModel, path,
         std::string("not an OpenVINO IR: malformed XML (") + ok.description() + " at byte " +
             std::to_string(ok.offset) + ")");
  pugi::xml_node net = doc.child("net");
  if (!net) fail(ErrorKind::InvalidModel, path, "not an OpenVINO IR: no <net> element");
  Parser parser(max_depth);
  int64_t version = 0;
  {
    std::string v = net.attribute("version").value();
    if (v == "10" || v == "11")
      version = std::stoll(v);
    else
      fail(ErrorKind::Unsupported, path, "IR version '" + v + "' (bough reads versions 10 and 11)");
  }
  std::unique_ptr<XmlNet> main = parser.net(net, version, 0, path + ": main");
  main->pre_process = pre_process(net.child("pre-process"), path + ": <pre-process>");
  return main;
}

}  // namespace bough::openvino
