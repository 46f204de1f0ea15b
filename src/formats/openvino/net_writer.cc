#include "formats/openvino/net_writer.h"

#include <algorithm>
#include <filesystem>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/packed_strings.h"
#include "formats/openvino/writer.h"
#include "util/files.h"

namespace bough::openvino {

namespace {

std::string shape_text(const ir::Shape& s) {
  std::string out;
  for (const ir::Dim& d : s.dims) {
    if (!out.empty()) out += ',';
    out += d.is_known() ? std::to_string(d.value) : "?";
  }
  return out;
}

}  // namespace

namespace {

const std::string* metadata_value(const ir::Metadata& metadata, const char* key) {
  for (const auto& [k, value] : metadata)
    if (k == key) return &value;
  return nullptr;
}

}  // namespace

XmlPort NetWriter::port_of(const ir::Edge* e) {
  XmlPort p;
  if (!e) return p;
  p.names = {e->name};
  // A port of unknown rank has no dims, as OpenVINO writes it (and reads it: its reader
  // infers shapes again; bough's reads no dims as an unknown rank).
  const ir::Type& t = e->type;
  if (t.kind == ir::Type::Kind::Tensor && !ov_elem_name(t.elem).empty()) {
    p.elem = t.elem;
    p.shape = t.shape;
  }
  if (const std::string* rt = metadata_value(e->metadata, kPortRtInfoKey)) p.rt_info = *rt;
  return p;
}

// Layer ids are positions in the net, and a layer's output k is port (inputs + k).
XmlPort& NetWriter::output_port(PortRef p) const {
  XmlLayer& l = net_->layers.at(static_cast<size_t>(p.layer));
  return l.outputs.at(static_cast<size_t>(p.port) - l.inputs.size());
}

int64_t NetWriter::add(XmlLayer l, const std::vector<PortRef>& ins) {
  l.id = static_cast<int64_t>(net_->layers.size());
  l.inputs.clear();
  for (size_t k = 0; k < ins.size(); ++k) {
    XmlPort in;
    in.id = static_cast<int64_t>(k);
    in.elem = output_port(ins[k]).elem;
    in.shape = output_port(ins[k]).shape;
    in.u1 = output_port(ins[k]).u1;
    l.inputs.push_back(in);
    net_->edges.push_back({ins[k].layer, ins[k].port, l.id, in.id});
  }
  for (size_t k = 0; k < l.outputs.size(); ++k)
    l.outputs[k].id = static_cast<int64_t>(ins.size() + k);
  net_->layers.push_back(std::move(l));
  return net_->layers.back().id;
}

PortRef NetWriter::op(const std::string& type, const std::string& version, const std::string& name,
                      const std::vector<PortRef>& ins, const ir::Edge* out,
                      std::map<std::string, std::string> data) {
  XmlLayer l;
  l.name = name;
  l.type = type;
  l.version = version;
  l.data = std::move(data);
  l.outputs = {port_of(out)};
  int64_t id = add(std::move(l), ins);
  PortRef p{id, static_cast<int64_t>(ins.size())};
  if (out) bind(out, p);
  return p;
}

namespace {

// Whether `e` was read from an OpenVINO u1 Const or Parameter and still holds uint8 values that
// u1 can hold (a value of 2 or more is written as the u8 it is).
bool held_as_u1(const ir::Edge* e) {
  const std::string* t = metadata_value(e->metadata, kElementTypeKey);
  if (!t || *t != "u1" || e->type.kind != ir::Type::Kind::Tensor || e->type.elem != ElemType::UInt8)
    return false;
  if (!e->data) return true;
  const auto* v = static_cast<const uint8_t*>(e->data->raw());
  return e->data->type() == ElemType::UInt8 &&
         std::all_of(v, v + e->data->nbytes(), [](uint8_t x) { return x <= 1; });
}

}  // namespace

PortRef NetWriter::constant(const Tensor& t, const std::string& name, bool u1) {
  std::string_view type = u1 ? "u1" : ov_elem_name(t.type());
  if (type.empty())
    fail(ErrorKind::Unsupported, where_ + "/" + name,
         "constants of type " + std::string(elem_name(t.type())) + " have no OpenVINO form");
  std::string bytes;
  if (t.type() == ElemType::String)
    bytes = pack_ov_strings(t.strings(), t.numel(), where_ + "/" + name);
  else
    bytes.assign(static_cast<const char*>(t.raw()), t.nbytes());
  // OpenVINO packs u1 and u2 with element 0 in the most significant bits, ONNX u2 in the least.
  if (u1) bytes = pack_ov_u1(bytes);
  if (t.type() == ElemType::UInt2) bytes = pack_ov_u2(bytes, t.numel());
  auto [it, fresh] = ctx_.blobs.emplace(bytes, ctx_.bin.size());
  if (fresh) ctx_.bin += bytes;
  XmlLayer l;
  l.name = name;
  l.type = "Const";
  l.version = "opset1";
  std::string shape;
  for (int64_t d : t.shape()) shape += (shape.empty() ? "" : ",") + std::to_string(d);
  l.data = {{"element_type", std::string(type)},
            {"shape", shape},
            {"offset", std::to_string(it->second)},
            {"size", std::to_string(bytes.size())}};
  XmlPort out;
  out.elem = t.type();
  out.u1 = u1;
  out.shape.rank_known = true;
  for (int64_t d : t.shape()) out.shape.dims.push_back(ir::Dim::known(d));
  out.names = {name};
  l.outputs = {out};
  return {add(std::move(l), {}), 0};
}

PortRef NetWriter::const_i64(const std::vector<int64_t>& v, const std::string& name) {
  return constant(Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(v.size())}, v), name);
}

PortRef NetWriter::parameter(const ir::Edge* e, bool require_type) {
  XmlPort port = port_of(e);
  // A tensor of unknown rank keeps its element type, with the shape "...".
  std::optional<ElemType> elem = port.elem;
  if (!elem && require_type)
    fail(ErrorKind::Unsupported, where_,
         "input '" + e->name + "' needs a tensor type to become a Parameter");
  XmlLayer l;
  l.name = e->name;
  l.type = "Parameter";
  l.version = "opset1";
  port.u1 = held_as_u1(e);
  l.data = {{"element_type", port.u1 ? "u1"
                             : elem  ? std::string(ov_elem_name(*elem))
                                     : "dynamic"},
            {"shape", elem && port.shape.rank_known ? shape_text(port.shape) : "..."}};
  if (const std::string* rt = metadata_value(e->metadata, kRtInfoKey)) l.rt_info = *rt;
  l.outputs = {port};
  PortRef p{add(std::move(l), {}), 0};
  bind(e, p);
  return p;
}

int64_t NetWriter::result(PortRef p, const std::string& name) {
  XmlLayer l;
  l.name = name + "/sink_port_0";
  l.type = "Result";
  l.version = "opset1";
  return add(std::move(l), {p});
}

PortRef NetWriter::source(const ir::Edge* e) {
  auto it = ports_.find(e);
  if (it != ports_.end()) return it->second;
  if (e->data) {  // an initializer, or an input with a default value
    PortRef p = constant(*e->data, e->name, held_as_u1(e));
    XmlLayer& l = net_->layers.at(static_cast<size_t>(p.layer));
    if (const std::string* rt = metadata_value(e->metadata, kRtInfoKey)) l.rt_info = *rt;
    if (const std::string* rt = metadata_value(e->metadata, kPortRtInfoKey))
      l.outputs[0].rt_info = *rt;
    bind(e, p);
    return p;
  }
  fail(ErrorKind::InvalidModel, where_, "value '" + e->name + "' is read before it is defined");
}

std::vector<int64_t> NetWriter::write_graph(const ir::Graph& g) {
  for (const auto& n : g.nodes) {
    write_node(*this, *n);
    // rt_info read from a layer (and its input ports) goes back on the layer that makes the
    // node's first output.
    auto port = n->outputs.empty() ? ports_.end() : ports_.find(n->outputs[0]);
    if (port == ports_.end()) continue;
    XmlLayer& l = net_->layers.at(static_cast<size_t>(port->second.layer));
    const std::string* rt = metadata_value(n->metadata, kRtInfoKey);
    if (rt && l.rt_info.empty()) l.rt_info = *rt;
    for (size_t k = 0; k < l.inputs.size(); ++k)
      if (const std::string* in_rt = metadata_value(n->metadata, input_port_rt_info_key(k).c_str()))
        l.inputs[k].rt_info = *in_rt;
  }
  // Each output's name joins its port's names, and its Result is named after it (as
  // OpenVINO's converters name Results "<tensor>/sink_port_0"), so outputs that share a
  // port (an Identity writes nothing) keep their own names.
  std::vector<int64_t> results;
  for (const ir::Edge* e : g.outputs) {
    PortRef p = source(e);
    std::vector<std::string>& names = output_port(p).names;
    if (std::find(names.begin(), names.end(), e->name) == names.end()) names.push_back(e->name);
    results.push_back(result(p, e->name));
    XmlLayer& r = net_->layers.back();
    if (const std::string* rt = metadata_value(e->metadata, kResultRtInfoKey)) r.rt_info = *rt;
    if (const std::string* rt = metadata_value(e->metadata, kResultPortRtInfoKey))
      r.inputs[0].rt_info = *rt;
  }
  return results;
}

IrFiles write_ir(const ir::Model& model) {
  WriterContext ctx;
  ctx.opset = model.opset("");
  XmlNet net;
  net.name = model.graph->name.empty() ? "model" : model.graph->name;
  net.version = 11;
  NetWriter w(ctx, &net, model.path + ": main");
  for (const ir::Edge* e : model.graph->inputs)
    if (!e->data) w.parameter(e);
  w.write_graph(*model.graph);
  if (const std::string* rt = metadata_value(model.metadata, kRtInfoKey)) net.rt_info = *rt;
  return {xml_text(net), std::move(ctx.bin)};
}

void write_model_files(const ir::Model& model, const std::string& xml_path, bool overwrite) {
  IrFiles files = write_ir(model);
  std::string bin = std::filesystem::path(xml_path).replace_extension(".bin").string();
  write_file_atomic(bin, files.bin, overwrite);
  write_file_atomic(xml_path, files.xml, overwrite);
}

}  // namespace bough::openvino
