// OpenVINO's Convolution-1, GroupConvolution-1, MaxPool-1/-8 and AvgPool-1 as ONNX's Conv
// (with `group`), MaxPool and AveragePool: pads_begin and pads_end join as pads, auto_pad
// goes to upper case, rounding_type becomes ceil_mode and exclude-pad count_include_pad.
// GroupConvolution's filter [G, C_OUT/G, C_IN/G, k...] is ONNX's [C_OUT, C_IN/G, k...]
// with the first two axes merged. MaxPool-8's indices count positions in the input
// flattened from its `axis` on (OpenVINO's MaxPool-8 specification); ONNX's count from axis
// 0 (storage_order 0), so for axis > 0 they are taken modulo the product of dims[axis:].
#include <algorithm>
#include <cstring>
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

// The dims of `p`, all of which must be known.
std::vector<int64_t> static_dims(GraphLowering& g, const XmlLayer& l, const XmlPort& p,
                                 const char* what) {
  std::vector<int64_t> dims;
  for (const ir::Dim& d : p.shape.dims) dims.push_back(d.is_known() ? d.value : -1);
  if (!p.shape.rank_known || std::count(dims.begin(), dims.end(), -1) > 0)
    fail(ErrorKind::Unsupported, g.where(l), std::string(what) + " of a shape not fully known");
  return dims;
}

void dilations_attr(GraphLowering& g, const XmlLayer& l, ir::Node* n) {
  if (std::vector<int64_t> d = int_list(g, l, "dilations"); !d.empty())
    n->attributes.push_back(ints_attr("dilations", d));
}

// MaxPool-8's second output from ONNX's Indices `flat` (counted over the whole input):
// modulo the size of dims[axis:] when axis > 0, converted to index_element_type i32.
void pool_indices(GraphLowering& g, const LayerIO& io, ir::Edge* flat) {
  const XmlLayer& l = io.layer;
  const std::string* type = l.attr("index_element_type");
  const bool i32 = type && *type == "i32";
  if (type && !i32 && *type != "i64")
    fail(ErrorKind::InvalidModel, g.where(l), "index_element_type \"" + *type + "\"");
  int64_t axis = int_data(g, l, "axis", 0);
  ir::Edge* indices = flat;
  if (axis != 0) {
    std::vector<int64_t> dims = static_dims(g, l, l.inputs.at(0), "MaxPool indices from axis");
    const auto rank = static_cast<int64_t>(dims.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank)
      fail(ErrorKind::InvalidModel, g.where(l), "axis out of the input's rank");
    int64_t size = 1;
    for (int64_t i = axis; i < rank; ++i) size *= dims[static_cast<size_t>(i)];
    std::vector<ir::Edge*> ins{flat, g.constant(Tensor::scalar_i64(size), l.name + "/index_range")};
    if (!i32) {
      g.node_to("Mod", ins, {io.out[1]}, l.name + "/indices")
          ->attributes.push_back(int_attr("fmod", 0));
      return;
    }
    indices = g.node("Mod", ins, l.name + "/indices_from_axis", int_attr("fmod", 0));
  }
  g.node_to("Cast", {indices}, {io.out[1]}, l.name + "/indices")
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(ElemType::Int32)));
}

}  // namespace

// GroupConvolution's filter is reshaped to ONNX's layout by its dims: a constant's own,
// else those of its port.
void map_convolution(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  ir::Edge* filter = io.in[1];
  int64_t groups = 1;
  if (l.type == "GroupConvolution") {
    // A constant's own shape, not what its port claims, decides how its bytes are read.
    const Tensor* constant = GraphLowering::constant_value(filter);
    std::vector<int64_t> dims =
        constant ? constant->shape().vec() : static_dims(g, l, l.inputs.at(1), "a filter");
    if (dims.size() < 3 || dims[0] < 1)
      fail(ErrorKind::InvalidModel, g.where(l),
           "the filter is not [GROUPS, C_OUT/GROUPS, C_IN/GROUPS, ...]");
    groups = dims[0];
    std::vector<int64_t> merged{dims[0] * dims[1]};
    merged.insert(merged.end(), dims.begin() + 2, dims.end());
    // A constant filter (the usual case) is stored in ONNX's shape, so that its dims stay
    // known to whoever reads the ONNX; any other is reshaped at run time.
    if (constant) {
      Tensor onnx_filter(constant->type(), Dims(merged));
      std::memcpy(onnx_filter.raw(), constant->raw(), constant->nbytes());
      filter = g.constant(std::move(onnx_filter), l.name + "/filter");
    } else {
      filter = g.node("Reshape", {filter, g.constant(i64_tensor(merged), l.name + "/filter_shape")},
                      l.name + "/filter");
    }
  }
  ir::Node* n = g.node_to("Conv", {io.in[0], filter}, {io.out[0]}, l.name);
  window_attrs(g, l, n);
  dilations_attr(g, l, n);
  if (groups != 1) n->attributes.push_back(int_attr("group", groups));
}

void map_pool(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const bool max = l.type == "MaxPool";
  const bool with_indices = max && io.out.size() == 2;  // MaxPool-8
  if (io.in.size() != 1 || io.out.size() != (with_indices ? 2u : 1u))
    fail(ErrorKind::InvalidModel, g.where(l),
         l.type + " takes one input and gives " + (max ? "values (and indices)" : "one output"));
  const std::string* rounding = l.attr("rounding_type");
  if (rounding && *rounding != "floor" && *rounding != "ceil")
    fail(ErrorKind::Unsupported, g.where(l), "rounding_type \"" + *rounding + "\"");
  std::vector<int64_t> kernel = int_list(g, l, "kernel");
  if (kernel.empty()) fail(ErrorKind::InvalidModel, g.where(l), "no kernel");
  std::vector<ir::Edge*> outs{io.out[0]};
  // ONNX's indices are OpenVINO's for axis 0 and i64; else they are converted after.
  const bool indices_as_onnx =
      with_indices && int_data(g, l, "axis", 0) == 0 &&
      (!l.attr("index_element_type") || *l.attr("index_element_type") == "i64");
  if (indices_as_onnx) outs.push_back(io.out[1]);
  if (with_indices && !indices_as_onnx)
    outs.push_back(g.graph()->new_edge(g.model().unique_name(l.name + "/flat_indices"),
                                       ir::Edge::Origin::NodeOutput));
  ir::Node* n = g.node_to(max ? "MaxPool" : "AveragePool", {io.in[0]}, outs, l.name);
  window_attrs(g, l, n);
  if (max) dilations_attr(g, l, n);
  n->attributes.push_back(ints_attr("kernel_shape", kernel));
  n->attributes.push_back(int_attr("ceil_mode", rounding && *rounding == "ceil" ? 1 : 0));
  if (!max)
    n->attributes.push_back(int_attr("count_include_pad", flag(l, "exclude-pad", false) ? 0 : 1));
  if (with_indices && !indices_as_onnx) pool_indices(g, io, outs[1]);
}

}  // namespace bough::openvino
