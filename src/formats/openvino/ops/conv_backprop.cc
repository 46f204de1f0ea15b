// Transposed convolution, both ways: OpenVINO's ConvolutionBackpropData-1 and
// GroupConvolutionBackpropData-1 as ONNX's ConvTranspose (with `group`), and back.
//
// Along each spatial axis, the full transposed convolution of X elements has
// F = s*(X-1) + (K-1)*d + 1 of them; both formats then cut `pads_begin` from its start and
// give Y elements, output_padding being zeros or uncut values after its end. What differs is
// how Y and the cut are chosen (OpenVINO's specification and its shape inference,
// convolution_backprop_shape_inference_util.hpp):
// - no output_shape input: Y = F - pads_begin - pads_end + output_padding, where same_upper,
//   same_lower and valid all mean zero pads (ONNX's SAME_* aim at Y = X*s instead);
// - output_shape given: Y is it. For same_upper and same_lower the padding
//   total = max(F + output_padding - Y, 0) is split with the larger half at the beginning for
//   same_upper and at the end for same_lower, the reverse of ONNX's ConvTranspose; explicit
//   and valid keep pads_begin (0 for valid) and cut the rest, or append zeros, at the end.
// Each case is written as ONNX's explicit pads (with output_padding for appended zeros), which
// needs output_shape constant and the data's spatial dims and the kernel known.
//
// ConvTranspose is written as explicit padding too: its output_shape and SAME_* padding are
// resolved by ONNX's rule (the larger half at the end for SAME_UPPER, at the start
// otherwise) from the input's spatial dims, which must be known. Its bias becomes an Add.
// The grouped filters' layouts are in conv_filters.h.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/ops/conv_filters.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

std::string count_text(size_t have, size_t r) {
  return " holds " + std::to_string(have) + " values for " + std::to_string(r) + " spatial axes";
}

// The per-axis attribute `key` of `l` (`fallback` on every axis when absent), each value
// at least `least`.
std::vector<int64_t> per_axis(GraphLowering& g, const XmlLayer& l, const char* key, size_t r,
                              int64_t fallback, int64_t least) {
  std::vector<int64_t> v = int_list(g, l, key);
  if (v.empty()) v.assign(r, fallback);
  if (v.size() != r) fail(ErrorKind::InvalidModel, g.where(l), key + count_text(v.size(), r));
  for (int64_t x : v)
    if (x < least)
      fail(ErrorKind::InvalidModel, g.where(l),
           std::string(key) + " must be at least " + std::to_string(least));
  return v;
}

// The shape of input `k`: its value's, else its type's, else what its port declares.
ir::Shape input_shape(const LayerIO& io, size_t k) {
  const ir::Edge* e = io.in.at(k);
  if (e->data) {
    std::vector<ir::Dim> dims;
    for (int64_t d : e->data->shape()) dims.push_back(ir::Dim::known(d));
    return ir::Shape::of(std::move(dims));
  }
  if (e->type.kind == ir::Type::Kind::Tensor && e->type.shape.rank_known) return e->type.shape;
  return io.layer.inputs.at(k).shape;
}

// Dims `skip`.. of input `k` for `r` spatial axes; nullopt where not known.
std::vector<std::optional<int64_t>> spatial(const LayerIO& io, size_t k, size_t skip, size_t r) {
  const ir::Shape s = input_shape(io, k);
  std::vector<std::optional<int64_t>> dims(r);
  if (!s.rank_known || s.dims.size() != skip + r) return dims;
  for (size_t i = 0; i < r; ++i)
    if (s.dims[skip + i].is_known()) dims[i] = s.dims[skip + i].value;
  return dims;
}

// The number of spatial axes: strides' length, else the data's rank less 2, else the
// filter's less `skip`.
size_t spatial_rank(GraphLowering& g, const LayerIO& io, size_t skip) {
  if (std::vector<int64_t> s = int_list(g, io.layer, "strides"); !s.empty()) return s.size();
  for (size_t k : {0, 1}) {
    const ir::Shape s = input_shape(io, k);
    const size_t before = k == 0 ? 2 : skip;
    if (s.rank_known && s.dims.size() > before) return s.dims.size() - before;
  }
  fail(ErrorKind::Unsupported, g.where(io.layer), "no strides and inputs of unknown rank");
}

void map_conv_backprop(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 3);
  const XmlLayer& l = io.layer;
  const bool grouped = canonical_type(l) == "GroupConvolutionBackpropData";
  const size_t skip = grouped ? 3 : 2;  // the filter's axes before the kernel's
  const size_t r = spatial_rank(g, io, skip);
  const std::vector<int64_t> strides = per_axis(g, l, "strides", r, 1, 1);
  const std::vector<int64_t> dilations = per_axis(g, l, "dilations", r, 1, 1);
  std::vector<int64_t> begin = per_axis(g, l, "pads_begin", r, 0, 0);
  std::vector<int64_t> end = per_axis(g, l, "pads_end", r, 0, 0);
  std::vector<int64_t> adj = per_axis(g, l, "output_padding", r, 0, 0);
  const std::string mode = enum_data(l, "auto_pad", "explicit");
  if (mode != "explicit" && mode != "valid" && mode != "same_upper" && mode != "same_lower")
    fail(ErrorKind::InvalidModel, g.where(l), "auto_pad \"" + *l.attr("auto_pad") + "\"");
  if (mode != "explicit") begin = end = std::vector<int64_t>(r, 0);
  if (io.in.size() == 3) {
    const std::vector<int64_t> out = const_ints(g, io, 2, "output_shape");
    if (out.size() != r)
      fail(ErrorKind::InvalidModel, g.where(l), "output_shape" + count_text(out.size(), r));
    const std::vector<std::optional<int64_t>> x = spatial(io, 0, 2, r), k = spatial(io, 1, skip, r);
    for (size_t i = 0; i < r; ++i) {
      if (!x[i] || !k[i])
        fail(ErrorKind::Unsupported, g.where(l),
             "output_shape with the data's spatial dims or the kernel's not known (the padding "
             "it implies is computed when reading)");
      const int64_t full = strides[i] * (*x[i] - 1) + (*k[i] - 1) * dilations[i] + 1;
      if (mode == "same_upper" || mode == "same_lower") {
        const int64_t total = std::max<int64_t>(full + adj[i] - out[i], 0);
        begin[i] = mode == "same_upper" ? total - total / 2 : total / 2;
      }
      const int64_t cut = full - begin[i] - out[i];  // negative: zeros appended
      end[i] = std::max<int64_t>(cut, 0);
      adj[i] = std::max<int64_t>(-cut, 0);
    }
  }
  int64_t groups = 1;
  ir::Edge* filter = grouped ? onnx_group_filter(g, io, &groups) : io.in[1];
  ir::Node* n = g.node_to("ConvTranspose", {io.in[0], filter}, {io.out[0]}, l.name);
  std::vector<int64_t> pads = begin;
  pads.insert(pads.end(), end.begin(), end.end());
  n->attributes.push_back(ints_attr("strides", strides));
  n->attributes.push_back(ints_attr("dilations", dilations));
  n->attributes.push_back(ints_attr("pads", pads));
  n->attributes.push_back(ints_attr("output_padding", adj));
  if (groups != 1) n->attributes.push_back(int_attr("group", groups));
}

int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// An attribute of `n` holding one value per spatial axis (`fallback` each when absent).
std::vector<int64_t> axis_attr(NetWriter& w, const ir::Node& n, const char* name, size_t count,
                               int64_t fallback) {
  std::vector<int64_t> v = ints_attr_or(n, name, std::vector<int64_t>(count, fallback));
  if (v.size() != count)
    fail(ErrorKind::InvalidModel, w.where(n), name + count_text(v.size(), count));
  return v;
}

// The spatial dims of `e` for `r` axes from `skip` on, when all are known.
std::optional<std::vector<int64_t>> known_spatial(const ir::Edge* e, size_t skip, size_t r) {
  std::optional<std::vector<int64_t>> dims = known_dims(e);
  if (dims && dims->size() == skip + r)
    return std::vector<int64_t>(dims->begin() + skip, dims->end());
  const ir::Type& t = e->type;
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known || t.shape.dims.size() != skip + r)
    return std::nullopt;
  std::vector<int64_t> v;
  for (size_t i = 0; i < r; ++i) {
    if (!t.shape.dims[skip + i].is_known()) return std::nullopt;
    v.push_back(t.shape.dims[skip + i].value);
  }
  return v;
}

void write_conv_transpose(NetWriter& w, const ir::Node& n) {
  const ir::Edge* x = n.inputs.at(0);
  const ir::Edge* weights = n.inputs.at(1);
  size_t r = 0;
  if (const ir::Attribute* k = n.attr("kernel_shape"))
    r = k->ints.size();
  else if (std::optional<std::vector<int64_t>> d = known_dims(weights); d && d->size() > 2)
    r = d->size() - 2;
  else if (x->type.kind == ir::Type::Kind::Tensor && x->type.shape.rank_known &&
           x->type.shape.dims.size() > 2)
    r = x->type.shape.dims.size() - 2;
  else
    fail(ErrorKind::Unsupported, w.where(n), "ConvTranspose of unknown spatial rank");
  const std::vector<int64_t> strides = axis_attr(w, n, "strides", r, 1);
  const std::vector<int64_t> dilations = axis_attr(w, n, "dilations", r, 1);
  std::vector<int64_t> adj = axis_attr(w, n, "output_padding", r, 0);
  const std::vector<int64_t> pads = axis_attr(w, n, "pads", 2 * r, 0);
  const ir::Attribute* pad = n.attr("auto_pad");
  const std::string mode = pad ? pad->s : "NOTSET";
  if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER")
    fail(ErrorKind::InvalidModel, w.where(n), "auto_pad \"" + mode + "\"");
  std::vector<int64_t> begin(pads.begin(), pads.begin() + static_cast<long>(r));
  std::vector<int64_t> end(pads.begin() + static_cast<long>(r), pads.end());
  if (mode == "VALID") begin = end = std::vector<int64_t>(r, 0);
  std::vector<int64_t> out = ints_attr_or(n, "output_shape", {});
  if (out.size() == r + 2) out.erase(out.begin(), out.begin() + 2);
  if (!out.empty() && out.size() != r)
    fail(ErrorKind::InvalidModel, w.where(n), "output_shape" + count_text(out.size(), r));
  if (!out.empty() || mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    std::optional<std::vector<int64_t>> xs = known_spatial(x, 2, r);
    std::optional<std::vector<int64_t>> ks = known_spatial(weights, 2, r);
    if (const ir::Attribute* k = n.attr("kernel_shape")) ks = k->ints;
    if (!xs || !ks)
      fail(ErrorKind::Unsupported, w.where(n),
           "ConvTranspose with output_shape or SAME_* padding needs the input's spatial dims "
           "and the kernel known (its padding is written explicitly: OpenVINO splits it "
           "otherwise)");
    for (size_t i = 0; i < r; ++i) {
      const int64_t full = strides[i] * ((*xs)[i] - 1) + ((*ks)[i] - 1) * dilations[i] + 1;
      const int64_t y = out.empty() ? (*xs)[i] * strides[i] : out[i];
      const int64_t total = full + adj[i] - y, half = floor_half(total);
      begin[i] = mode == "SAME_UPPER" ? half : total - half;
      if (begin[i] < 0)
        fail(ErrorKind::Unsupported, w.where(n),
             "ConvTranspose whose output would start before the full transposed convolution's");
      const int64_t cut = full - begin[i] - y;
      end[i] = std::max<int64_t>(cut, 0);
      adj[i] = std::max<int64_t>(-cut, 0);
    }
  }
  const std::map<std::string, std::string> data{
      {"strides", list_text(strides)},  {"dilations", list_text(dilations)},
      {"pads_begin", list_text(begin)}, {"pads_end", list_text(end)},
      {"auto_pad", "explicit"},         {"output_padding", list_text(adj)}};
  const int64_t groups = int_attr_or(n, "group", 1);
  const bool bias = n.inputs.size() > 2 && n.inputs[2];
  const std::string name = layer_name(n);
  PortRef filter = groups == 1 ? w.source(weights) : ov_group_filter(w, n, groups);
  PortRef conv = w.op(groups == 1 ? "ConvolutionBackpropData" : "GroupConvolutionBackpropData",
                      "opset1", bias ? name + "/deconv" : name, {w.source(x), filter},
                      bias ? nullptr : out0(w, n), data);
  if (bias) add_conv_bias(w, n, conv, r);
}

}  // namespace

OpFamily conv_backprop_family() {
  return {{{"ConvolutionBackpropData", "1", map_conv_backprop},
           {"GroupConvolutionBackpropData", "1", map_conv_backprop}},
          {{"ConvTranspose", "ConvolutionBackpropData-1 GroupConvolutionBackpropData-1",
            write_conv_transpose}}};
}

}  // namespace bough::openvino
