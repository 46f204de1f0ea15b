#include "formats/openvino_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <set>

#include "formats/npy/npy.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "test_paths.h"
#include "util/compare.h"

namespace bough::test {

namespace fs = std::filesystem;

std::string save_ir(const std::string& dir, const std::string& name, const std::string& xml,
                    const std::string& weights) {
  std::string path = dir + "/" + name + ".xml";
  std::ofstream(path, std::ios::binary) << xml;
  if (!weights.empty()) std::ofstream(dir + "/" + name + ".bin", std::ios::binary) << weights;
  return path;
}

Error ir_load_error(const std::string& dir, const std::string& xml, const std::string& weights) {
  std::string path = save_ir(scratch_dir(dir), "m", xml, weights);
  try {
    Model::load(path);
  } catch (const Error& e) {
    EXPECT_NE(e.where().find(path), std::string::npos) << e.what();
    return e;
  }
  ADD_FAILURE() << "expected an error";
  return Error(ErrorKind::IO, "", "");
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

namespace {

std::string precision(const std::string& type) {
  if (type == "f32") return "FP32";
  if (type == "i64") return "I64";
  if (type == "boolean") return "BOOL";
  ADD_FAILURE() << "no precision for " << type;
  return type;
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += (s.empty() ? "" : ",") + std::to_string(d);
  return s;
}

int64_t element_size(const std::string& type) {
  return type == "i64" ? 8 : type == "boolean" ? 1 : 4;
}

}  // namespace

std::string ov_dims(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += "<dim>" + std::to_string(d) + "</dim>";
  return s;
}

std::string ov_parameter(int id, const std::string& name, const std::vector<int64_t>& dims,
                         const std::string& type) {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Parameter\" version=\"opset1\"><data element_type=\"" + type + "\" shape=\"" +
         shape_text(dims) + "\"/><output><port id=\"0\" precision=\"" + precision(type) + "\">" +
         ov_dims(dims) + "</port></output></layer>\n";
}

std::string ov_const(int id, const std::string& name, const std::vector<int64_t>& dims,
                     const std::string& type, size_t offset) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Const\" version=\"opset1\"><data element_type=\"" + type + "\" shape=\"" +
         shape_text(dims) + "\" offset=\"" + std::to_string(offset) + "\" size=\"" +
         std::to_string(n * element_size(type)) + "\"/><output><port id=\"0\" precision=\"" +
         precision(type) + "\">" + ov_dims(dims) + "</port></output></layer>\n";
}

std::string ov_result(int id, const std::string& name, const std::vector<int64_t>& dims) {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Result\" version=\"opset1\"><input><port id=\"0\">" + ov_dims(dims) +
         "</port></input></layer>\n";
}

std::string ov_one_layer_net(const std::vector<OvSource>& sources, const std::string& type,
                             const std::string& version, const std::string& data,
                             const std::vector<OvOutput>& outputs) {
  const size_t k = sources.size();
  const std::string id = std::to_string(k);
  std::string layers, ports, out_ports, results, edges;
  for (size_t i = 0; i < k; ++i) {
    layers += sources[i].layer;
    ports += "<port id=\"" + std::to_string(i) + "\">" + ov_dims(sources[i].dims) + "</port>";
    edges += "<edge from-layer=\"" + std::to_string(i) + "\" from-port=\"0\" to-layer=\"" + id +
             "\" to-port=\"" + std::to_string(i) + "\"/>\n";
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    const std::string port = std::to_string(k + o), result = std::to_string(k + 1 + o);
    out_ports += "<port id=\"" + port + "\" precision=\"FP32\" names=\"" + outputs[o].name + "\">" +
                 ov_dims(outputs[o].dims) + "</port>";
    results += ov_result(static_cast<int>(k + 1 + o), "out_" + outputs[o].name, outputs[o].dims);
    edges += "<edge from-layer=\"" + id + "\" from-port=\"" + port + "\" to-layer=\"" + result +
             "\" to-port=\"0\"/>\n";
  }
  return "<?xml version=\"1.0\"?>\n<net name=\"one\" version=\"11\">\n<layers>\n" + layers +
         "<layer id=\"" + id + "\" name=\"op\" type=\"" + type + "\" version=\"" + version +
         "\"><data " + data + "/><input>" + ports + "</input><output>" + out_ports +
         "</output></layer>\n" + results + "</layers>\n<edges>\n" + edges + "</edges>\n</net>\n";
}

std::string ov_one_layer_net(const std::vector<OvSource>& sources, const std::string& type,
                             const std::string& version, const std::string& data,
                             const std::vector<int64_t>& out_dims, const std::string& out_name) {
  return ov_one_layer_net(sources, type, version, data, {{out_dims, out_name}});
}

namespace {

// The attributes OpenVINO's IR deserializer reads with pugixml::get_*_attr and no default,
// so that a missing one throws: per element, in the context the reader meets it.
struct Mandatory {
  const char* element;
  std::vector<const char*> attributes;
};
const std::vector<Mandatory>& mandatory_table() {
  static const std::vector<Mandatory> table{
      // parse_generic_params: a layer's id, version, type and name; its ports' ids, and an
      // output port's precision (an input port has none to read).
      {"layer", {"id", "version", "type", "name"}},
      {"input port", {"id"}},
      {"output port", {"id", "precision"}},
      // parse_function: every edge's four ends.
      {"edge", {"from-layer", "from-port", "to-layer", "to-port"}},
      // parse_input_description / parse_output_description / parse_purpose_attribute.
      {"port map entry", {"external_port_id", "internal_layer_id"}},
      {"back edge", {"from-layer", "to-layer"}},
      // Constant's and Parameter's visitors: the data they are built from.
      {"Const data", {"element_type", "shape", "offset", "size"}},
      {"Parameter data", {"element_type", "shape"}},
  };
  return table;
}

bool is_unsigned(const char* s) {
  if (!*s) return false;
  for (; *s; ++s)
    if (*s < '0' || *s > '9') return false;
  return true;
}

bool is_integer(const char* s) { return is_unsigned(*s == '-' ? s + 1 : s); }

class IrRules {
 public:
  std::vector<std::string> problems;

  void check(const pugi::xml_node& node, const char* element, const std::string& where) {
    for (const Mandatory& m : mandatory_table())
      if (std::string(m.element) == element)
        for (const char* a : m.attributes)
          if (!node.attribute(a))
            problems.push_back(where + ": " + element + " has no '" + a + "'");
  }

  void net(const pugi::xml_node& net, const std::string& where, bool body) {
    bool has_result = false;
    for (pugi::xml_node l : net.child("layers").children("layer")) {
      std::string at = where + "/layer " + l.attribute("id").value();
      check(l, "layer", at);
      std::string type = l.attribute("type").value();
      has_result = has_result || type == "Result";
      if (type == "Const") check(l.child("data"), "Const data", at);
      if (type == "Parameter") check(l.child("data"), "Parameter data", at);
      for (pugi::xml_node p : l.child("input").children("port")) port(p, "input port", at);
      for (pugi::xml_node p : l.child("output").children("port")) port(p, "output port", at);
      for (pugi::xml_node map : l.children()) {
        std::string tag = map.name();
        if (tag == "port_map" || tag == "then_port_map" || tag == "else_port_map")
          for (pugi::xml_node e : map.children()) {
            check(e, "port map entry", at + "/" + tag);
            // The reader takes an input's axis as an unsigned integer (get_uint64_attr).
            if (std::string(e.name()) == "input" && e.attribute("axis") &&
                !is_unsigned(e.attribute("axis").value()))
              problems.push_back(at + "/" + tag + ": axis \"" + e.attribute("axis").value() +
                                 "\" is not unsigned");
            if (e.attribute("axis") && !is_integer(e.attribute("axis").value()))
              problems.push_back(at + "/" + tag + ": axis is not an integer");
          }
        if (tag == "back_edges")
          for (pugi::xml_node e : map.children("edge")) check(e, "back edge", at + "/back_edges");
        if (tag == "body" || tag == "then_body" || tag == "else_body")
          this->net(map, at + "/" + tag, true);
      }
    }
    for (pugi::xml_node e : net.child("edges").children("edge")) check(e, "edge", where + "/edge");
    // The serializer and the reader both assert that a body has a Result.
    if (body && !has_result) problems.push_back(where + ": a body without a Result");
  }

 private:
  void port(const pugi::xml_node& p, const char* element, const std::string& at) {
    check(p, element, at);
    for (pugi::xml_node d : p.children("dim")) {
      // parse_generic_params: a dim is an integer of at least -1.
      std::string v = d.child_value();
      if (!is_integer(v.c_str()) || std::stoll(v) < -1)
        problems.push_back(at + ": dim \"" + v + "\" is not an integer >= -1");
    }
  }
};

void expect_same(const NamedValues& want, const NamedValues& got, const std::string& trip) {
  EXPECT_EQ(want.size(), got.size()) << trip;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    EXPECT_EQ(want[i].first, got[i].first) << trip;
    EXPECT_EQ(compare_values(want[i].second, got[i].second, Tolerance{0, 0}), "")
        << "output " << want[i].first << " differs after " << trip;
  }
}

// With $BOUGH_KEEP_IR set, copies the model to $BOUGH_KEEP_IR/<Suite.Test>_<k>/m.xml (and
// m.bin) with its inputs as inputs/NAME.npy: bench/ort-check-openvino runs them on ONNX
// Runtime.
void keep_for_peer_check(const std::string& xml_path, const NamedValues& inputs) {
  const char* keep = std::getenv("BOUGH_KEEP_IR");
  if (!keep || !*keep) return;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string base = std::string(info->test_suite_name()) + "." + info->name() + "_";
  fs::path dir;
  for (int k = 0; dir.empty() || fs::exists(dir); ++k)
    dir = fs::path(keep) / (base + std::to_string(k));
  fs::create_directories(dir / "inputs");
  fs::copy_file(xml_path, dir / "m.xml");
  fs::path bin = fs::path(xml_path).replace_extension(".bin");
  if (fs::exists(bin)) fs::copy_file(bin, dir / "m.bin");
  for (const auto& [name, value] : inputs)
    npy::write_npy(value.tensor(), (dir / "inputs" / (name + ".npy")).string());
}

// What ONNX Runtime also insists on in the ONNX written from IR: node names unique in each
// graph, and no subgraph returning an outer value as it is or one value twice.
void expect_strict_graphs(const ir::Graph& g, bool subgraph) {
  std::set<std::string> names;
  for (const auto& n : g.nodes) {
    EXPECT_TRUE(n->name.empty() || names.insert(n->name).second)
        << g.name << ": two nodes are named " << n->name;
    for (const auto& a : n->attributes)
      if (a.g) expect_strict_graphs(*a.g, true);
  }
  if (!subgraph) return;
  for (auto it = g.outputs.begin(); it != g.outputs.end(); ++it) {
    EXPECT_NE((*it)->origin, ir::Edge::Origin::Capture)
        << g.name << " returns the outer value " << (*it)->name;
    EXPECT_EQ(std::find(g.outputs.begin(), it, *it), it)
        << g.name << " returns " << (*it)->name << " twice";
  }
}

}  // namespace

std::vector<std::string> ov_reader_violations(const std::string& xml) {
  pugi::xml_document doc;
  if (!doc.load_string(xml.c_str())) return {"malformed XML"};
  IrRules rules;
  pugi::xml_node net = doc.child("net");
  if (!net) return {"no <net>"};
  if (!net.attribute("version")) rules.problems.push_back("<net> has no version");
  rules.net(net, "net", false);
  return rules.problems;
}

void expect_ov_reader_accepts(const std::string& xml, const std::string& what) {
  std::vector<std::string> problems = ov_reader_violations(xml);
  std::string text;
  for (const std::string& p : problems) text += "\n  " + p;
  EXPECT_TRUE(problems.empty()) << what << " breaks OpenVINO's reader's rules:" << text;
}

NamedValues run_ir(const std::string& xml_path, const NamedValues& inputs) {
  keep_for_peer_check(xml_path, inputs);
  Session ir_session(Model::load(xml_path));
  NamedValues direct = ir_session.run(inputs);
  std::string onnx_bytes = onnx::write_model_bytes(*openvino::read_model_file(xml_path));
  std::shared_ptr<ir::Model> via_onnx(onnx::read_model_bytes(onnx_bytes, xml_path + ".onnx", ""));
  expect_strict_graphs(*via_onnx->graph, false);
  expect_same(direct, Session(Model(via_onnx)).run(inputs), "IR -> ONNX");
  openvino::IrFiles again = openvino::write_ir(*via_onnx);
  expect_ov_reader_accepts(again.xml, xml_path + " written back as IR");
  std::shared_ptr<ir::Model> via_ir(
      openvino::read_model_text(again.xml, &again.bin, xml_path + ".onnx.xml"));
  expect_same(direct, Session(Model(via_ir)).run(inputs), "IR -> ONNX -> IR");
  return direct;
}

}  // namespace bough::test
