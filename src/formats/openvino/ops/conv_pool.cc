// Convolution and pooling, both ways.
//
// OpenVINO's Convolution-1, GroupConvolution-1, MaxPool-1/-8 and AvgPool-1 as ONNX's Conv
// (with `group`), MaxPool and AveragePool: pads_begin and pads_end join as pads, auto_pad
// goes to upper case, rounding_type becomes ceil_mode and exclude-pad count_include_pad.
// GroupConvolution's filter [G, C_OUT/G, C_IN/G, k...] is ONNX's [C_OUT, C_IN/G, k...]
// with the first two axes merged. MaxPool-8's indices count positions in the input
// flattened from its `axis` on (OpenVINO's MaxPool-8 specification); ONNX's count from axis
// 0 (storage_order 0), so for axis > 0 they are taken modulo the product of dims[axis:].
//
// ONNX's Conv, MaxPool and AveragePool as OpenVINO's Convolution-1, MaxPool-1 and AvgPool-1:
// the same window attributes under other names (pads split into pads_begin and pads_end,
// auto_pad in lower case, ceil_mode as rounding_type, count_include_pad as exclude-pad).
// Conv's bias becomes an Add of the bias reshaped to [1, C, 1, ...]. A Conv with `group` is
// GroupConvolution-1, its weights [C_OUT, C_IN/G, k...] reshaped to [G, C_OUT/G, C_IN/G, k...]
// (their dims must be known). MaxPool with Indices or dilations is MaxPool-8 with axis 0,
// whose indices count over the whole input as ONNX's do with storage_order 0 (OpenVINO's
// MaxPool-8 specification); storage_order 1 and AveragePool with dilations are refused.
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

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

// GroupConvolution's filter is reshaped to ONNX's layout by its dims: a constant's own,
// else those of its port.
void map_convolution(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  ir::Edge* filter = io.in[1];
  int64_t groups = 1;
  if (canonical_type(l) == "GroupConvolution") {
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
  const std::string& type = canonical_type(l);
  const bool max = type == "MaxPool";
  const bool with_indices = max && io.out.size() == 2;  // MaxPool-8
  if (io.in.size() != 1 || io.out.size() != (with_indices ? 2u : 1u))
    fail(ErrorKind::InvalidModel, g.where(l),
         type + " takes one input and gives " + (max ? "values (and indices)" : "one output"));
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

// The number of spatial axes: kernel_shape's length, else the rank of `shaped` less 2.
size_t spatial_rank(NetWriter& w, const ir::Node& n, const ir::Edge* shaped) {
  if (const ir::Attribute* k = n.attr("kernel_shape")) return k->ints.size();
  const ir::Type& t = shaped->type;
  if (t.kind == ir::Type::Kind::Tensor && t.shape.rank_known && t.shape.dims.size() >= 2)
    return t.shape.dims.size() - 2;
  fail(ErrorKind::Unsupported, w.where(n), n.op_type + " of unknown spatial rank");
}

std::map<std::string, std::string> window_data(NetWriter& w, const ir::Node& n, size_t r) {
  const std::vector<int64_t> ones(r, 1);
  const std::vector<int64_t> pads = ints_attr_or(n, "pads", std::vector<int64_t>(2 * r, 0));
  if (pads.size() != 2 * r)
    fail(
        ErrorKind::InvalidModel, w.where(n),
        "pads holds " + std::to_string(pads.size()) + " values for " + std::to_string(r) + " axes");
  const ir::Attribute* pad = n.attr("auto_pad");
  const std::string mode = pad ? pad->s : "NOTSET";
  const std::map<std::string, std::string> modes{{"NOTSET", "explicit"},
                                                 {"SAME_UPPER", "same_upper"},
                                                 {"SAME_LOWER", "same_lower"},
                                                 {"VALID", "valid"}};
  if (!modes.count(mode)) fail(ErrorKind::InvalidModel, w.where(n), "auto_pad \"" + mode + "\"");
  return {{"strides", list_text(ints_attr_or(n, "strides", ones))},
          {"pads_begin", list_text({pads.begin(), pads.begin() + static_cast<long>(r)})},
          {"pads_end", list_text({pads.begin() + static_cast<long>(r), pads.end()})},
          {"auto_pad", modes.at(mode)}};
}

// The dims of `e` when all are known (from its data or its type).
std::optional<std::vector<int64_t>> known_dims(const ir::Edge* e) {
  if (e->data) return e->data->shape().vec();
  const ir::Type& t = e->type;
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : t.shape.dims) {
    if (!d.is_known()) return std::nullopt;
    dims.push_back(d.value);
  }
  return dims;
}

// ONNX's grouped weights [C_OUT, C_IN/G, k...] as GroupConvolution's [G, C_OUT/G, C_IN/G, k...].
PortRef group_filter(NetWriter& w, const ir::Node& n, int64_t groups) {
  const ir::Edge* weights = n.inputs.at(1);
  std::optional<std::vector<int64_t>> dims = known_dims(weights);
  if (!dims || dims->size() < 3 || (*dims)[0] % groups != 0)
    fail(ErrorKind::Unsupported, w.where(n),
         "Conv with group " + std::to_string(groups) +
             " needs weights of known dims with C_OUT divisible by the group");
  std::vector<int64_t> shape{groups, (*dims)[0] / groups};
  shape.insert(shape.end(), dims->begin() + 1, dims->end());
  const std::string name = layer_name(n);
  PortRef filter = w.op("Reshape", "opset1", name + "/filter",
                        {w.source(weights), w.const_i64(shape, name + "/filter_shape")}, nullptr,
                        {{"special_zero", "false"}});
  // The port declares the filter's shape: a reader takes the groups from it.
  XmlPort& port = w.output_port(filter);
  port.shape.dims.clear();
  for (int64_t d : shape) port.shape.dims.push_back(ir::Dim::known(d));
  if (weights->type.kind == ir::Type::Kind::Tensor) port.elem = weights->type.elem;
  return filter;
}

void write_conv(NetWriter& w, const ir::Node& n) {
  const int64_t groups = int_attr_or(n, "group", 1);
  const ir::Edge* weights = n.inputs.at(1);
  const size_t r = spatial_rank(w, n, weights);
  std::map<std::string, std::string> data = window_data(w, n, r);
  data["dilations"] = list_text(ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1)));
  const ir::Edge* bias = n.inputs.size() > 2 ? n.inputs[2] : nullptr;
  const std::string name = layer_name(n);
  PortRef filter = groups == 1 ? w.source(weights) : group_filter(w, n, groups);
  PortRef conv =
      w.op(groups == 1 ? "Convolution" : "GroupConvolution", "opset1", bias ? name + "/conv" : name,
           {w.source(n.inputs.at(0)), filter}, bias ? nullptr : out0(w, n), data);
  if (!bias) return;
  std::vector<int64_t> shape(r + 2, 1);
  shape[1] = -1;
  PortRef b = w.op("Reshape", "opset1", name + "/bias",
                   {w.source(bias), w.const_i64(shape, name + "/bias_shape")}, nullptr,
                   {{"special_zero", "false"}});
  w.op("Add", "opset1", name, {conv, b}, out0(w, n), {{"auto_broadcast", "numpy"}});
}

void write_pool(NetWriter& w, const ir::Node& n) {
  const bool max = n.op_type == "MaxPool";
  const bool indices = max && n.outputs.size() > 1 && n.outputs[1];
  bool dilated = false;
  for (int64_t d : ints_attr_or(n, "dilations", {})) dilated = dilated || d != 1;
  if (dilated && !max) fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with dilations");
  if (indices && int_attr_or(n, "storage_order", 0) != 0)
    fail(ErrorKind::Unsupported, w.where(n),
         "MaxPool's Indices in column-major order (storage_order 1)");
  const ir::Attribute* kernel = n.attr("kernel_shape");
  if (!kernel) fail(ErrorKind::InvalidModel, w.where(n), "no kernel_shape");
  const size_t r = kernel->ints.size();
  std::map<std::string, std::string> data = window_data(w, n, r);
  data["kernel"] = list_text(kernel->ints);
  data["rounding_type"] = int_attr_or(n, "ceil_mode", 0) ? "ceil" : "floor";
  if (!max) data["exclude-pad"] = int_attr_or(n, "count_include_pad", 0) ? "false" : "true";
  if (!indices && !dilated) {
    w.op(max ? "MaxPool" : "AvgPool", "opset1", layer_name(n), {w.source(n.inputs.at(0))},
         out0(w, n), data);
    return;
  }
  // MaxPool-8: values and indices (the latter unread when ONNX's node has no Indices).
  data["dilations"] = list_text(ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1)));
  data["index_element_type"] = "i64";
  data["axis"] = "0";
  XmlLayer l;
  l.name = layer_name(n);
  l.type = "MaxPool";
  l.version = "opset8";
  l.data = std::move(data);
  l.outputs = {NetWriter::port_of(out0(w, n)),
               NetWriter::port_of(indices ? n.outputs[1] : nullptr)};
  const int64_t id = w.add(std::move(l), {w.source(n.inputs.at(0))});
  w.bind(n.outputs[0], {id, 1});
  if (indices) w.bind(n.outputs[1], {id, 2});
}

}  // namespace

OpFamily conv_pool_family() {
  return {{{"Convolution", "1", map_convolution},
           {"GroupConvolution", "1", map_convolution},
           {"MaxPool", "1 8", map_pool},
           {"AvgPool", "1", map_pool}},
          {{"Conv", "Convolution-1 GroupConvolution-1", write_conv},
           {"MaxPool", "MaxPool-1 MaxPool-8", write_pool},
           {"AveragePool", "AvgPool-1", write_pool}}};
}

}  // namespace bough::openvino
