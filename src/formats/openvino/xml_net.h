// The OpenVINO IR XML as plain data: layers with their attributes and ports, edges, and
// for If/Loop/TensorIterator their bodies, port maps and back edges. Parsing stops at
// what the file says; turning it into the core IR is the lowering's job (lower.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/types.h"

namespace bough::openvino {

struct XmlPort {
  int64_t id = 0;
  std::optional<ElemType> elem;  // from `precision`, when given
  ir::Shape shape;  // from the <dim>s (-1, ?, or a range is unknown); none: rank unknown
  std::vector<std::string> names;
  std::string rt_info;  // the port's <rt_info> element as XML text, "" when there is none
  bool u1 = false;      // written as precision BIN: u1 values, held one per byte in a UInt8
};

// One <input>/<output> entry of a port map.
struct PortMapEntry {
  int64_t external_port_id = -1;
  int64_t internal_layer_id = -1;
  std::optional<int64_t> axis;  // slices an input / concatenates an output
  std::string purpose;          // "current_iteration", "execution_condition" or ""
  // With `axis`: the parts taken (TensorIterator), start..end by stride, part_size long.
  int64_t start = 0, end = -1, stride = 1, part_size = 1;
};

struct XmlNet;

struct XmlLayer {
  int64_t id = 0;
  std::string name;
  std::string type;
  std::string version;  // "opset8", ...
  std::map<std::string, std::string> data;
  std::vector<XmlPort> inputs;
  std::vector<XmlPort> outputs;
  // then_body/else_body/body, and then_port_map/else_port_map/port_map.
  std::map<std::string, std::unique_ptr<XmlNet>> bodies;
  std::map<std::string, std::vector<PortMapEntry>> input_maps;
  std::map<std::string, std::vector<PortMapEntry>> output_maps;
  std::vector<std::pair<int64_t, int64_t>> back_edges;  // Result id -> Parameter id
  std::string rt_info;  // the <rt_info> element as XML text, "" when there is none

  // The label used in diagnostics: `Add "name" (id 3)`.
  std::string label() const;
  const std::string* attr(const std::string& key) const;
};

struct XmlEdge {
  int64_t from_layer, from_port, to_layer, to_port;
};

// The legacy <pre-process> block of an IR net: a mean subtracted from one input per channel,
// given as a value or as an image of the input's spatial size stored in the .bin.
struct PreProcess {
  struct Mean {
    uint64_t channel = 0;
    std::optional<double> value;           // <mean value="...">
    std::optional<uint64_t> offset, size;  // <mean offset="..." size="..."> in the .bin
  };
  std::string input;  // reference-layer-name; "" lets the reader pick it as OpenVINO does
  std::vector<Mean> means;
};

struct XmlNet {
  std::string name;
  int64_t version = 0;           // IR version: 10 or 11 (bodies inherit it)
  std::vector<XmlLayer> layers;  // file order
  std::vector<XmlEdge> edges;
  std::string rt_info;  // the net's <rt_info> element as XML text, "" when there is none
  std::optional<PreProcess> pre_process;  // the main net's only
};

// The metadata key under which the core IR keeps a layer's or a net's <rt_info> (on the node
// the layer became, or on the model), so that the IR writer can put it back; ONNX carries it
// as metadata_props.
inline constexpr const char* kRtInfoKey = "openvino.rt_info";
// The key under which a value (an ir::Edge) keeps the <rt_info> of the output port it came
// from; a graph input keeps its Parameter's layer <rt_info> under kRtInfoKey, an initializer
// its Const's.
inline constexpr const char* kPortRtInfoKey = "openvino.port_rt_info";
// An initializer or graph input read from an OpenVINO u1 Const or Parameter, held one value
// per byte as uint8, keeps "u1" under this key so that the IR writer packs it back.
inline constexpr const char* kElementTypeKey = "openvino.element_type";
// A value a Result returns keeps that Result's <rt_info> and its input port's under these.
inline constexpr const char* kResultRtInfoKey = "openvino.result_rt_info";
inline constexpr const char* kResultPortRtInfoKey = "openvino.result_port_rt_info";
// The key under which a node keeps the <rt_info> of input port k of the layer it came from.
inline std::string input_port_rt_info_key(size_t k) {
  return "openvino.input_port_rt_info." + std::to_string(k);
}

// Parses the XML text; throws bough::Error naming `path` (and the layer) on malformed XML,
// unknown IR versions and bodies nested deeper than `max_depth`.
std::unique_ptr<XmlNet> parse_xml_net(const std::string& text, const std::string& path,
                                      int max_depth);

// The XML text of `net` as an IR v11 file (the inverse of parse_xml_net).
std::string xml_text(const XmlNet& net);

}  // namespace bough::openvino
