// ReadValue and Assign (stateful models), both ways: OpenVINO's ReadValue-3 and -6 and
// Assign-3 and -6 as the org.openvinotoolkit ReadValue and Assign that bough runs
// (ops/openvino/), whose variables the session keeps between runs.
//
// - ReadValue-6: variable_id, variable_type ("dynamic" or an element type) and
//   variable_shape (a partial shape, "..." a dynamic rank) become the node's attributes
//   (variable_type as an element type code, 0 for dynamic; variable_shape as dims, -1 for a
//   dynamic one, absent for a dynamic rank); init_value is optional. ReadValue-3 has only
//   variable_id and a required init_value, and is written back as ReadValue-3.
// - Assign: its core node reads, besides new_value, the output of the ReadValue of its
//   variable (a dependency that keeps the read first, ops/openvino/assign.cc); the reader
//   orders an Assign's layer after that ReadValue's (lower.cc). An Assign whose variable no
//   ReadValue reads is left without it, for the check to refuse. It is written back with
//   new_value only, in the version of its ReadValue, with the output port OpenVINO's
//   serializer gives it (src/core/src/pass/serialize.cpp writes every output but a Result's).
#include <string>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

std::string variable_id(GraphLowering& g, const XmlLayer& l) {
  const std::string* id = l.attr("variable_id");
  if (!id || id->empty()) fail(ErrorKind::InvalidModel, g.where(l), "no variable_id");
  return *id;
}

ir::Node* state_node(GraphLowering& g, const char* op, std::vector<ir::Edge*> ins, ir::Edge* out,
                     const XmlLayer& l, const std::string& id) {
  ir::Node* n = g.node_to(op, std::move(ins), {out}, l.name);
  n->domain = kOpenVinoDomain;
  n->attributes.push_back(string_attr("variable_id", id));
  return n;
}

void map_read_value(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const int version = op_version(l);
  check_inputs(g, io, version == 3 ? 1 : 0, 1);
  const std::string id = variable_id(g, l);
  ir::Node* n = state_node(g, "ReadValue", io.in, io.out[0], l, id);
  if (version == 6) {
    const std::string type = l.attr("variable_type") ? *l.attr("variable_type") : "dynamic";
    int64_t code = 0;
    if (!is_dynamic_elem(type)) {
      std::optional<ElemType> elem = elem_from_ov(type);
      if (!elem)
        fail(ErrorKind::Unsupported, g.where(l),
             "variable_type '" + type + "', which bough does not support");
      code = static_cast<int64_t>(*elem);
    }
    n->attributes.push_back(int_attr("variable_type", code));
    const std::string shape_text = l.attr("variable_shape") ? *l.attr("variable_shape") : "...";
    const ir::Shape shape = partial_shape(shape_text, g.where(l));
    if (shape.rank_known) {
      std::vector<int64_t> dims;
      for (const ir::Dim& d : shape.dims) dims.push_back(d.is_known() ? d.value : -1);
      n->attributes.push_back(ints_attr("variable_shape", std::move(dims)));
    }
  }
  g.model().variables.emplace(id, io.out[0]);
}

void map_assign(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.size() != 1 || io.out.size() > 1)
    fail(ErrorKind::InvalidModel, g.where(l), "Assign takes one input and gives one output");
  const std::string id = variable_id(g, l);
  // OpenVINO's specification draws Assign without an output port; its serializer writes one.
  ir::Edge* out = !io.out.empty() ? io.out[0]
                                  : g.graph()->new_edge(g.model().unique_name(l.name),
                                                        ir::Edge::Origin::NodeOutput);
  auto read = g.model().variables.find(id);
  state_node(g, "Assign", {io.in[0], read == g.model().variables.end() ? nullptr : read->second},
             out, l, id);
}

// "1,?,128" ("..." without variable_shape, a dynamic rank), as OpenVINO writes a partial shape.
std::string shape_text(const ir::Node& n) {
  const ir::Attribute* a = n.attr("variable_shape");
  if (!a) return "...";
  std::string s;
  for (int64_t d : a->ints) s += (s.empty() ? "" : ",") + (d < 0 ? "?" : std::to_string(d));
  return s;
}

bool is_v6(const ir::Node& n) { return n.attr("variable_type") != nullptr; }

void write_read_value(NetWriter& w, const ir::Node& n) {
  const std::string id = n.attr("variable_id") ? n.attr("variable_id")->s : "";
  std::map<std::string, std::string> data{{"variable_id", id}};
  std::vector<PortRef> ins;
  if (!n.inputs.empty() && n.inputs[0]) ins.push_back(w.source(n.inputs[0]));
  if (!is_v6(n)) {
    if (ins.empty()) fail(ErrorKind::InvalidModel, w.where(n), "ReadValue-3 needs its init_value");
    w.op("ReadValue", "opset3", layer_name(n), ins, out0(w, n), std::move(data));
    return;
  }
  const int64_t code = n.attr("variable_type")->i;
  std::string type = "dynamic";
  if (code != 0) {
    type = std::string(ov_elem_name(static_cast<ElemType>(code)));
    if (type.empty())
      fail(ErrorKind::Unsupported, w.where(n),
           "variable_type " + std::string(elem_name(static_cast<ElemType>(code))) +
               " has no OpenVINO form");
  }
  data["variable_type"] = type;
  data["variable_shape"] = shape_text(n);
  w.op("ReadValue", "opset6", layer_name(n), ins, out0(w, n), std::move(data));
}

void write_assign(NetWriter& w, const ir::Node& n) {
  if (n.inputs.empty() || !n.inputs[0])
    fail(ErrorKind::InvalidModel, w.where(n), "Assign needs new_value");
  const std::string id = n.attr("variable_id") ? n.attr("variable_id")->s : "";
  const ir::Node* read = n.inputs.size() > 1 && n.inputs[1] ? n.inputs[1]->producer : nullptr;
  const bool v3 = read && !is_v6(*read);
  w.op("Assign", v3 ? "opset3" : "opset6", layer_name(n), {w.source(n.inputs[0])}, out0(w, n),
       {{"variable_id", id}});
}

}  // namespace

OpFamily state_family() {
  return {{{"ReadValue", "3 6", map_read_value}, {"Assign", "3 6", map_assign}},
          {{"org.openvinotoolkit:ReadValue", "ReadValue-3 ReadValue-6", write_read_value},
           {"org.openvinotoolkit:Assign", "Assign-3 Assign-6", write_assign}}};
}

}  // namespace bough::openvino
