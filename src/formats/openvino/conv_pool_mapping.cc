// OpenVINO's Convolution-1, MaxPool-1 and AvgPool-1 as ONNX's Conv, MaxPool and
// AveragePool: pads_begin and pads_end join as pads, auto_pad goes to upper case,
// rounding_type becomes ceil_mode and exclude-pad count_include_pad. (MaxPool-8's indices
// output has no counterpart here and is refused.)
#include <map>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

namespace {

void window_attrs(GraphLowering& g, const XmlLayer& l, ir::Node* n) {
  const std::string* pad = l.attr("auto_pad");
  const std::map<std::string, std::string> modes{{"", "NOTSET"},
                                                 {"explicit", "NOTSET"},
                                                 {"notset", "NOTSET"},
                                                 {"same_upper", "SAME_UPPER"},
                                                 {"same_lower", "SAME_LOWER"},
                                                 {"valid", "VALID"}};
  auto mode = modes.find(pad ? *pad : "");
  if (mode == modes.end()) fail(ErrorKind::InvalidModel, g.where(l), "auto_pad \"" + *pad + "\"");
  n->attributes.push_back(string_attr("auto_pad", mode->second));
  if (mode->second == "NOTSET") {
    std::vector<int64_t> pads = int_list(g, l, "pads_begin"), end = int_list(g, l, "pads_end");
    if (pads.size() != end.size())
      fail(ErrorKind::InvalidModel, g.where(l), "pads_begin and pads_end differ in length");
    pads.insert(pads.end(), end.begin(), end.end());
    if (!pads.empty()) n->attributes.push_back(ints_attr("pads", pads));
  }
  if (std::vector<int64_t> strides = int_list(g, l, "strides"); !strides.empty())
    n->attributes.push_back(ints_attr("strides", strides));
}

}  // namespace

void map_convolution(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  ir::Node* n = g.node_to("Conv", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name);
  window_attrs(g, io.layer, n);
  if (std::vector<int64_t> d = int_list(g, io.layer, "dilations"); !d.empty())
    n->attributes.push_back(ints_attr("dilations", d));
}

void map_pool(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const bool max = l.type == "MaxPool";
  if (io.out.size() != 1)
    fail(ErrorKind::Unsupported, g.where(l), "MaxPool with an indices output (MaxPool-8)");
  check_inputs(g, io, 1, 1);
  const std::string* rounding = l.attr("rounding_type");
  if (rounding && *rounding != "floor" && *rounding != "ceil")
    fail(ErrorKind::Unsupported, g.where(l), "rounding_type \"" + *rounding + "\"");
  std::vector<int64_t> kernel = int_list(g, l, "kernel");
  if (kernel.empty()) fail(ErrorKind::InvalidModel, g.where(l), "no kernel");
  ir::Node* n = g.node_to(max ? "MaxPool" : "AveragePool", {io.in[0]}, {io.out[0]}, l.name);
  window_attrs(g, l, n);
  n->attributes.push_back(ints_attr("kernel_shape", kernel));
  n->attributes.push_back(int_attr("ceil_mode", rounding && *rounding == "ceil" ? 1 : 0));
  if (!max)
    n->attributes.push_back(int_attr("count_include_pad", flag(l, "exclude-pad", false) ? 0 : 1));
}

}  // namespace bough::openvino
