// Lowering an OpenVINO IR (XmlNet) into the core IR. A GraphLowering builds one ir::Graph:
// it orders the layers topologically, turns Parameters, Consts and Results into graph
// inputs, initializers and outputs, and hands every other layer to the op mapping
// (op_mapping.h), which emits ONNX-domain nodes through the helpers below.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/openvino/xml_net.h"
#include "ir/graph.h"

namespace bough::openvino {

// What all graphs of one model share: its weights, and the value names already taken.
// Names are unique across the model, so a subgraph that reads an outer value by name, as
// written ONNX does, can never find a body value of the same name instead.
struct ModelContext {
  const std::string* weights = nullptr;  // the .bin; nullptr when there is none
  std::unordered_set<std::string> names;
  std::unordered_map<std::string, int64_t> next_suffix;  // per wanted name, the last suffix tried
  // Per variable_id, the output of its ReadValue (ops/state.cc), which its Assign reads too.
  std::unordered_map<std::string, ir::Edge*> variables;
  std::string unique_name(const std::string& wanted);
};

// One layer being lowered: its XML and the edges at its input and output ports, in port
// order. The op mapping must give every output edge a producer.
struct LayerIO {
  const XmlLayer& layer;
  std::vector<ir::Edge*> in;
  std::vector<ir::Edge*> out;
};

class GraphLowering {
 public:
  // Gives the edge a body Parameter stands for (a graph input, or a capture of an outer value).
  using ParamBinder = std::function<ir::Edge*(const XmlLayer& param)>;

  GraphLowering(ModelContext& model, ir::Graph* graph, std::string where)
      : model_(model), graph_(graph), where_(std::move(where)) {}

  // Lowers every layer of `net` that a Result depends on; returns each Result layer with the
  // edge it returns, in file order.
  std::vector<std::pair<const XmlLayer*, ir::Edge*>> lower(const XmlNet& net,
                                                           const ParamBinder& bind);

  // ONNX Runtime refuses a subgraph that returns an outer value as it is, and the same value
  // listed twice among a graph's outputs; exporters put an Identity in between, and so does
  // this, for every output after the graph's are set. With `inputs_too`, also for an output
  // that is one of the graph's own inputs: ONNX Runtime 1.30 gives zeros for a Scan output
  // that is a body input as it is.
  void separate_outputs(bool inputs_too = false);

  // A node of `op` reading `ins` and producing the existing edges `outs`.
  ir::Node* node_to(const std::string& op, std::vector<ir::Edge*> ins, std::vector<ir::Edge*> outs,
                    const std::string& name);
  // A one-output node with at most one attribute; returns its new output edge, named
  // after `name` (made unique), as the node is.
  ir::Edge* node(const std::string& op, std::vector<ir::Edge*> ins, const std::string& name,
                 ir::Attribute attr = {});
  ir::Edge* constant(Tensor t, const std::string& name);
  // `e` as int64 (ONNX wants int64 shapes, axes and indices where OpenVINO allows int32).
  ir::Edge* as_int64(ir::Edge* e, const std::string& name);
  // The value of `e` when it is a constant (here or in an enclosing graph), else nullptr.
  static const Tensor* constant_value(const ir::Edge* e);

  // The output port a Result (lowered by lower()) reads.
  const XmlPort* result_source(const XmlLayer& result) const;

  ir::Graph* graph() const { return graph_; }
  ModelContext& model() const { return model_; }
  std::string where(const XmlLayer& l) const { return where_ + "/" + l.label(); }

 private:
  ir::Edge* output_edge(const XmlLayer& l, const XmlPort& port);
  ir::Edge* const_edge(const XmlLayer& l);

  ModelContext& model_;
  ir::Graph* graph_;
  std::string where_;
  std::unordered_map<const XmlLayer*, const XmlPort*> result_sources_;
};

// For each layer of `net` (in file order): whether a Result (or an Assign, or the layer
// itself being a Parameter) depends on it. OpenVINO builds a graph from its Results back, so
// other layers are never read; bough leaves them out too.
std::vector<bool> reaches_result(const XmlNet& net);

ir::Attribute int_attr(const std::string& name, int64_t v);
ir::Attribute float_attr(const std::string& name, float v);
ir::Attribute string_attr(const std::string& name, std::string v);
ir::Attribute ints_attr(const std::string& name, std::vector<int64_t> v);
ir::Attribute floats_attr(const std::string& name, std::vector<float> v);
ir::Attribute graph_attr(const std::string& name, std::unique_ptr<ir::Graph> g);
// The type a port declares (undefined when it gives no element type).
ir::Type port_type(const XmlPort& p);
// A partial shape as a Parameter's `shape` (or ReadValue's `variable_shape`) spells it and
// OpenVINO's PartialShape(string) reads it: "" is a scalar, "..." a dynamic rank, else
// comma-separated dims (in optional brackets) that are a size, -1 or ? (dynamic), or a range
// lo..hi with either end left out (dynamic unless lo == hi).
ir::Shape partial_shape(const std::string& s, const std::string& where);
// The type a Parameter declares: its `element_type` and `shape` data, which tell a scalar
// ("") from a dynamic rank ("...") where its port cannot; its port's where they are missing.
// Undefined for the dynamic element type.
ir::Type parameter_type(const XmlLayer& param, const std::string& where);

}  // namespace bough::openvino
