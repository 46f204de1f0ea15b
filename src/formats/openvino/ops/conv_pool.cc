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
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/ops/conv_filters.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// auto_pad in any letter case, as OpenVINO reads it, as ONNX's; "" when there is none.
std::string auto_pad_mode(GraphLowering& g, const XmlLayer& l) {
  const std::map<std::string, std::string> modes{{"", "NOTSET"},
                                                 {"explicit", "NOTSET"},
                                                 {"notset", "NOTSET"},
                                                 {"same_upper", "SAME_UPPER"},
                                                 {"same_lower", "SAME_LOWER"},
                                                 {"valid", "VALID"}};
  auto mode = modes.find(enum_data(l, "auto_pad", ""));
  if (mode == modes.end())
    fail(ErrorKind::InvalidModel, g.where(l), "auto_pad \"" + *l.attr("auto_pad") + "\"");
  return mode->second;
}

using Pads = std::pair<std::vector<int64_t>, std::vector<int64_t>>;  // begin, end

// ONNX's auto_pad, pads and strides; `explicit_pads`, when given, replace the layer's.
void window_attrs(GraphLowering& g, const XmlLayer& l, ir::Node* n,
                  const Pads* explicit_pads = nullptr) {
  const std::string mode = explicit_pads ? "NOTSET" : auto_pad_mode(g, l);
  n->attributes.push_back(string_attr("auto_pad", mode));
  if (mode == "NOTSET") {
    std::vector<int64_t> pads = int_list(g, l, "pads_begin"), end = int_list(g, l, "pads_end");
    if (explicit_pads) std::tie(pads, end) = *explicit_pads;
    if (pads.size() != end.size())
      fail(ErrorKind::InvalidModel, g.where(l), "pads_begin and pads_end differ in length");
    pads.insert(pads.end(), end.begin(), end.end());
    if (!pads.empty()) n->attributes.push_back(ints_attr("pads", pads));
  }
  if (std::vector<int64_t> strides = int_list(g, l, "strides"); !strides.empty())
    n->attributes.push_back(ints_attr("strides", strides));
}

// OpenVINO's rounding_type "ceil" lets a pooling's last window start in the end padding or
// past it: out = ceil((D + pb + pe - kd) / s) + 1 (OpenVINO's pooling shape inference). ONNX's
// ceil_mode, like OpenVINO's "ceil_torch", drops that window (out - 1 when
// (out - 1) * s >= D + pb). Returns the padding with which ONNX's floor rounding counts
// OpenVINO's windows (the end padded up to a multiple of the stride), or nullopt when
// ceil_mode already counts them. Refused when it
// depends on dims the file leaves unknown, and for same_upper/same_lower, whose padding then
// differs too.
std::optional<Pads> ceil_pads(GraphLowering& g, const XmlLayer& l,
                              const std::vector<int64_t>& kernel) {
  const size_t r = kernel.size();
  auto per_axis = [&](const char* key, int64_t fallback) {
    std::vector<int64_t> v = int_list(g, l, key);
    if (v.empty()) v.assign(r, fallback);
    if (v.size() != r)
      fail(ErrorKind::InvalidModel, g.where(l), std::string(key) + " does not match the kernel");
    return v;
  };
  const std::string mode = auto_pad_mode(g, l);
  const bool explicit_pads = mode == "NOTSET";
  std::vector<int64_t> strides = per_axis("strides", 1), dilations = per_axis("dilations", 1);
  std::vector<int64_t> pb = explicit_pads ? per_axis("pads_begin", 0) : std::vector<int64_t>(r, 0);
  std::vector<int64_t> pe = explicit_pads ? per_axis("pads_end", 0) : std::vector<int64_t>(r, 0);
  const ir::Shape& x = l.inputs.at(0).shape;
  auto dim = [&](size_t i) -> std::optional<int64_t> {
    if (!x.rank_known || x.dims.size() != r + 2 || !x.dims[i + 2].is_known()) return std::nullopt;
    return x.dims[i + 2].value;
  };
  // The ceil division of each axis, when its dim is known.
  std::vector<std::optional<int64_t>> quotient(r);
  bool differs = false;
  for (size_t i = 0; i < r; ++i) {
    const int64_t s = strides[i], kd = (kernel[i] - 1) * dilations[i] + 1;
    if (s < 1 || kd < 1)
      fail(ErrorKind::InvalidModel, g.where(l), "strides and kernel must be positive");
    if (dim(i) && *dim(i) + pb[i] + pe[i] >= kd)
      quotient[i] = (*dim(i) + pb[i] + pe[i] - kd + s - 1) / s;
    // The rules can differ only when a window can start at the padding (s + pe > kd), or
    // for same_* when the kernel is shorter than the stride.
    const bool may_differ = explicit_pads || mode == "VALID" ? s + pe[i] > kd : kd < s;
    if (!may_differ) continue;
    if (!dim(i) || !explicit_pads)
      fail(ErrorKind::Unsupported, g.where(l),
           "rounding_type ceil whose output size (OpenVINO's rule) may differ from ONNX's "
           "ceil_mode, with " +
               std::string(dim(i) ? "same_upper/same_lower padding" : "an input dim not known"));
    differs = differs || (quotient[i] && *quotient[i] * s >= *dim(i) + pb[i]);
  }
  if (!differs) return std::nullopt;
  // Floor rounding over room padded up to a multiple of the stride counts ceil's windows.
  for (size_t i = 0; i < r; ++i) {
    if (!quotient[i])
      fail(ErrorKind::Unsupported, g.where(l), "rounding_type ceil with an input dim not known");
    pe[i] = *quotient[i] * strides[i] - *dim(i) - pb[i] + (kernel[i] - 1) * dilations[i] + 1;
  }
  return Pads{pb, pe};
}

// The lowest value of a float type, which OpenVINO's MaxPool gives a window wholly in the
// padding (its reference starts each window's maximum there); ONNX's gives -infinity.
std::optional<double> float_lowest(ElemType t) {
  switch (t) {
    case ElemType::Float:
      return -std::numeric_limits<float>::max();
    case ElemType::Double:
      return -std::numeric_limits<double>::max();
    case ElemType::Float16:
      return -65504.0;
    case ElemType::BFloat16:
      return -3.3895313892515355e38;
    default:
      return std::nullopt;
  }
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

// GroupConvolution's filter is reshaped to ONNX's layout (conv_filters.h).
void map_convolution(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  int64_t groups = 1;
  ir::Edge* filter =
      canonical_type(l) == "GroupConvolution" ? onnx_group_filter(g, io, &groups) : io.in[1];
  ir::Node* n = g.node_to("Conv", {io.in[0], filter}, {io.out[0]}, l.name);
  window_attrs(g, l, n);
  dilations_attr(g, l, n);
  if (groups != 1) n->attributes.push_back(int_attr("group", groups));
}

// rounding_type: floor, ceil (OpenVINO's rule, ceil_pads) or ceil_torch (ONNX's ceil_mode).
void map_pool(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string& type = canonical_type(l);
  const bool max = type == "MaxPool";
  const bool with_indices = max && io.out.size() == 2;  // MaxPool-8
  if (io.in.size() != 1 || io.out.size() != (with_indices ? 2u : 1u))
    fail(ErrorKind::InvalidModel, g.where(l),
         type + " takes one input and gives " + (max ? "values (and indices)" : "one output"));
  const std::string rounding = enum_data(l, "rounding_type", "floor");
  if (rounding != "floor" && rounding != "ceil" && rounding != "ceil_torch")
    fail(ErrorKind::Unsupported, g.where(l), "rounding_type \"" + rounding + "\"");
  std::vector<int64_t> kernel = int_list(g, l, "kernel");
  if (kernel.empty()) fail(ErrorKind::InvalidModel, g.where(l), "no kernel");
  std::optional<Pads> pads;
  if (rounding == "ceil") pads = ceil_pads(g, l, kernel);
  std::optional<double> lowest;
  if (pads) {
    const ir::Type& t = io.in[0]->type;
    if (!max || with_indices)
      fail(ErrorKind::Unsupported, g.where(l),
           type + (max ? " with indices" : "") +
               " whose rounding_type ceil counts a window past the padding (ONNX's ceil_mode "
               "drops it)");
    if (t.kind != ir::Type::Kind::Tensor)
      fail(ErrorKind::Unsupported, g.where(l), "MaxPool with ceil rounding of an unknown type");
    lowest = float_lowest(t.elem);
  }
  std::vector<ir::Edge*> outs{io.out[0]};
  if (lowest)
    outs[0] = g.graph()->new_edge(g.model().unique_name(l.name + "/pooled"),
                                  ir::Edge::Origin::NodeOutput);
  // ONNX's indices are OpenVINO's for axis 0 and i64; else they are converted after.
  const bool indices_as_onnx =
      with_indices && int_data(g, l, "axis", 0) == 0 &&
      (!l.attr("index_element_type") || *l.attr("index_element_type") == "i64");
  if (indices_as_onnx) outs.push_back(io.out[1]);
  if (with_indices && !indices_as_onnx)
    outs.push_back(g.graph()->new_edge(g.model().unique_name(l.name + "/flat_indices"),
                                       ir::Edge::Origin::NodeOutput));
  ir::Node* n = g.node_to(max ? "MaxPool" : "AveragePool", {io.in[0]}, outs, l.name);
  window_attrs(g, l, n, pads ? &*pads : nullptr);
  if (max) dilations_attr(g, l, n);
  n->attributes.push_back(ints_attr("kernel_shape", kernel));
  const bool ceil_mode = rounding == "ceil_torch" || (rounding == "ceil" && !pads);
  n->attributes.push_back(int_attr("ceil_mode", ceil_mode ? 1 : 0));
  if (!max)
    n->attributes.push_back(int_attr("count_include_pad", flag(l, "exclude-pad", false) ? 0 : 1));
  if (with_indices && !indices_as_onnx) pool_indices(g, io, outs[1]);
  if (lowest)
    g.node_to("Max",
              {outs[0], g.constant(*scalar_of(io.in[0]->type.elem, *lowest), l.name + "/lowest")},
              {io.out[0]}, l.name + "/padding_windows");
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

void write_conv(NetWriter& w, const ir::Node& n) {
  const int64_t groups = int_attr_or(n, "group", 1);
  const ir::Edge* weights = n.inputs.at(1);
  const size_t r = spatial_rank(w, n, weights);
  std::map<std::string, std::string> data = window_data(w, n, r);
  data["dilations"] = list_text(ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1)));
  const ir::Edge* bias = n.inputs.size() > 2 ? n.inputs[2] : nullptr;
  const std::string name = layer_name(n);
  PortRef filter = groups == 1 ? w.source(weights) : ov_group_filter(w, n, groups);
  PortRef conv =
      w.op(groups == 1 ? "Convolution" : "GroupConvolution", "opset1", bias ? name + "/conv" : name,
           {w.source(n.inputs.at(0)), filter}, bias ? nullptr : out0(w, n), data);
  if (bias) add_conv_bias(w, n, conv, r);
}

// ONNX's ceil_mode is OpenVINO's rounding_type "ceil_torch" (MaxPool-14, AvgPool-14): a
// window may not start in the end padding. It is written as the older "ceil" (pooling-1/8)
// where that cannot happen (s + pads_end <= the dilated kernel on every axis), and as
// "floor" for SAME_* padding, whose output OpenVINO's floor rounding already makes
// ceil(D / s), as ONNX's.
std::string pool_rounding(const ir::Node& n, const std::map<std::string, std::string>& data) {
  if (!int_attr_or(n, "ceil_mode", 0)) return "floor";
  const std::string& pad = data.at("auto_pad");
  if (pad == "same_upper" || pad == "same_lower") return "floor";
  const std::vector<int64_t> kernel = n.attr("kernel_shape")->ints;
  const size_t r = kernel.size();
  const std::vector<int64_t> strides = ints_attr_or(n, "strides", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> dilations = ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> pads = ints_attr_or(n, "pads", std::vector<int64_t>(2 * r, 0));
  for (size_t i = 0; i < r && i < strides.size() && i < dilations.size(); ++i) {
    const int64_t end = pad == "valid" ? 0 : pads[r + i];
    if (strides[i] + end > (kernel[i] - 1) * dilations[i] + 1) return "ceil_torch";
  }
  return "ceil";
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
  data["rounding_type"] = pool_rounding(n, data);
  const bool torch = data["rounding_type"] == "ceil_torch";
  if (!max) data["exclude-pad"] = int_attr_or(n, "count_include_pad", 0) ? "false" : "true";
  if (!max || (!indices && !dilated && !torch)) {
    w.op(max ? "MaxPool" : "AvgPool", torch ? "opset14" : "opset1", layer_name(n),
         {w.source(n.inputs.at(0))}, out0(w, n), data);
    return;
  }
  // MaxPool-8 (-14 for ceil_torch): values and indices (the latter unread when ONNX's node
  // has no Indices).
  data["dilations"] = list_text(ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1)));
  data["index_element_type"] = "i64";
  data["axis"] = "0";
  XmlLayer l;
  l.name = layer_name(n);
  l.type = "MaxPool";
  l.version = torch ? "opset14" : "opset8";
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
           {"MaxPool", "1 8 14", map_pool},
           {"AvgPool", "1 14", map_pool}},
          {{"Conv", "Convolution-1 GroupConvolution-1", write_conv},
           {"MaxPool", "MaxPool-1 MaxPool-8 MaxPool-14", write_pool},
           {"AveragePool", "AvgPool-1 AvgPool-14", write_pool}}};
}

}  // namespace bough::openvino
