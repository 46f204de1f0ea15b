#include "formats/openvino/reader.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/lower.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/pre_process.h"
#include "formats/openvino/xml_net.h"
#include "util/files.h"

namespace bough::openvino {

namespace {

// The ONNX opset the mapped nodes follow (Reshape's allowzero, reductions with axes inputs).
// IR carries no opset; 25 is the newest whose rows admit every element type the mapped
// operators meet (bfloat16 activations came with 22, int2 with 25).
constexpr int64_t kOnnxOpset = 25;

// The types of the layers a Result depends on that have no mapping.
void collect_unmapped(const XmlNet& net, std::set<std::string>* unmapped) {
  const std::vector<bool> live = reaches_result(net);
  for (size_t i = 0; i < net.layers.size(); ++i) {
    const XmlLayer& l = net.layers[i];
    if (!live[i]) continue;
    if (l.type != "Parameter" && l.type != "Const" && l.type != "Constant" && l.type != "Result" &&
        !is_mapped(l.type))
      unmapped->insert(l.type);
    for (const auto& [tag, body] : l.bodies) collect_unmapped(*body, unmapped);
  }
}

// A main-graph Parameter is a graph input; its port gives the type, else its `data`.
ir::Edge* graph_input(GraphLowering& g, const XmlLayer& param) {
  const XmlPort& port = param.outputs[0];
  std::string wanted = !port.names.empty() ? port.names.front() : param.name;
  ir::Edge* e = g.graph()->new_edge(g.model().unique_name(wanted), ir::Edge::Origin::Input);
  e->type = parameter_type(param, g.where(param));
  if (!e->type.defined())
    fail(ErrorKind::Unsupported, g.where(param),
         "a graph input of the dynamic element type (bough needs to know what it is)");
  e->has_value_info = true;
  if (const std::string* t = param.attr("element_type"); t && ov_sub_byte_bits(*t) == 1)
    e->metadata.emplace_back(kElementTypeKey, "u1");
  if (!param.rt_info.empty()) e->metadata.emplace_back(kRtInfoKey, param.rt_info);
  if (!port.rt_info.empty()) e->metadata.emplace_back(kPortRtInfoKey, port.rt_info);
  g.graph()->inputs.push_back(e);
  return e;
}

// The name of the output a Result gives: "N" for a Result named "N/sink_port_0" whose port
// has the tensor name N (as OpenVINO's converters and bough's writer name them), so that
// outputs sharing a port keep their own names; else "" (the value's own name).
std::string output_name(const XmlLayer& result, const XmlPort* source) {
  constexpr std::string_view kSuffix = "/sink_port_0";
  const std::string& name = result.name;
  if (!source || name.size() <= kSuffix.size() ||
      name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return "";
  std::string tensor = name.substr(0, name.size() - kSuffix.size());
  bool named = std::find(source->names.begin(), source->names.end(), tensor) != source->names.end();
  return named ? tensor : "";
}

// Imports, at version 1, the domains of the nodes the mapping wrote outside ONNX's (the
// org.openvinotoolkit operators of OpenVINO's ONNX frontend), through every body.
void import_node_domains(const ir::Graph& g, ir::Model& model) {
  for (const auto& n : g.nodes) {
    if (!n->domain.empty() && model.opset(n->domain) == 0)
      model.opset_imports.emplace_back(n->domain, 1);
    for (const ir::Attribute& a : n->attributes) {
      if (a.g) import_node_domains(*a.g, model);
      for (const auto& body : a.graphs) import_node_domains(*body, model);
    }
  }
}

}  // namespace

std::unique_ptr<ir::Model> read_model_text(const std::string& xml, const std::string* weights,
                                           const std::string& path) {
  std::unique_ptr<XmlNet> net = parse_xml_net(xml, path, kMaxNesting);
  std::set<std::string> unmapped;
  collect_unmapped(*net, &unmapped);
  if (!unmapped.empty()) {
    std::string list;
    for (const std::string& t : unmapped) list += (list.empty() ? "" : ", ") + t;
    fail(ErrorKind::Unsupported, path, "operators with no mapping to bough: " + list);
  }
  auto model = std::make_unique<ir::Model>();
  model->path = path;
  model->ir_version = 10;
  model->opset_imports = {{"", kOnnxOpset}};
  model->producer_name = "bough (from OpenVINO IR v" + std::to_string(net->version) + ")";
  if (!net->rt_info.empty()) model->metadata.emplace_back(kRtInfoKey, net->rt_info);
  model->graph = std::make_unique<ir::Graph>();
  model->graph->name = net->name;
  ModelContext ctx{weights, {}};
  GraphLowering g(ctx, model->graph.get(), path + ": main");
  const std::string pp_where = path + ": <pre-process>";
  const XmlLayer* pp_target =
      net->pre_process ? pre_process_target(*net, *net->pre_process, pp_where) : nullptr;
  auto results = g.lower(*net, [&](const XmlLayer& p) {
    ir::Edge* input = graph_input(g, p);
    return pp_target && p.id == pp_target->id ? subtract_mean(g, *net->pre_process, input, pp_where)
                                              : input;
  });
  for (const auto& [layer, result_edge] : results) {
    ir::Edge* edge = result_edge;
    // A Result's port may declare the type the producer's port left out.
    if (!edge->type.defined()) edge->type = port_type(layer->inputs[0]);
    std::string name = output_name(*layer, g.result_source(*layer));
    if (!name.empty() && name != edge->name) {
      ir::Edge* named = g.node("Identity", {edge}, name);
      named->type = edge->type;
      edge = named;
    }
    if (!layer->rt_info.empty()) edge->metadata.emplace_back(kResultRtInfoKey, layer->rt_info);
    if (!layer->inputs[0].rt_info.empty())
      edge->metadata.emplace_back(kResultPortRtInfoKey, layer->inputs[0].rt_info);
    model->graph->outputs.push_back(edge);
  }
  import_node_domains(*model->graph, *model);
  return model;
}

std::unique_ptr<ir::Model> read_model_file(const std::string& xml_path) {
  std::string xml = read_file(xml_path);
  std::filesystem::path bin = std::filesystem::path(xml_path).replace_extension(".bin");
  std::string weights;
  bool has_bin = std::filesystem::exists(bin);
  if (has_bin)
    weights = read_file(path_inside_folder(bin.parent_path().string(), bin.filename().string(),
                                           xml_path, "weights file"));
  return read_model_text(xml, has_bin ? &weights : nullptr, xml_path);
}

}  // namespace bough::openvino
