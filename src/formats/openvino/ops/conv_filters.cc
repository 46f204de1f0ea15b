#include "formats/openvino/ops/conv_filters.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

std::vector<int64_t> static_dims(GraphLowering& g, const XmlLayer& l, const XmlPort& p,
                                 const char* what) {
  std::vector<int64_t> dims;
  for (const ir::Dim& d : p.shape.dims) dims.push_back(d.is_known() ? d.value : -1);
  if (!p.shape.rank_known || std::count(dims.begin(), dims.end(), -1) > 0)
    fail(ErrorKind::Unsupported, g.where(l), std::string(what) + " of a shape not fully known");
  return dims;
}

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

ir::Edge* onnx_group_filter(GraphLowering& g, const LayerIO& io, int64_t* groups) {
  const XmlLayer& l = io.layer;
  ir::Edge* filter = io.in.at(1);
  // A constant's own shape, not what its port claims, decides how its bytes are read.
  const Tensor* constant = GraphLowering::constant_value(filter);
  std::vector<int64_t> dims =
      constant ? constant->shape().vec() : static_dims(g, l, l.inputs.at(1), "a grouped filter");
  if (dims.size() < 3 || dims[0] < 1)
    fail(ErrorKind::InvalidModel, g.where(l), "the filter is not [GROUPS, ..., k...]");
  *groups = dims[0];
  std::vector<int64_t> merged{dims[0] * dims[1]};
  merged.insert(merged.end(), dims.begin() + 2, dims.end());
  // A constant filter (the usual case) is stored in ONNX's shape, so that its dims stay
  // known to whoever reads the ONNX.
  if (constant) {
    Tensor onnx_filter(constant->type(), Dims(merged));
    std::memcpy(onnx_filter.raw(), constant->raw(), constant->nbytes());
    return g.constant(std::move(onnx_filter), l.name + "/filter");
  }
  ir::Edge* reshaped =
      g.node("Reshape", {filter, g.constant(i64_tensor(merged), l.name + "/filter_shape")},
             l.name + "/filter");
  // Its type is declared, so that a writer of the ONNX (ConvTranspose's or Conv's group
  // filter) still knows its dims.
  ir::Type t =
      filter->type.kind == ir::Type::Kind::Tensor ? filter->type : port_type(l.inputs.at(1));
  if (t.kind == ir::Type::Kind::Tensor) {
    std::vector<ir::Dim> dims;
    for (int64_t d : merged) dims.push_back(ir::Dim::known(d));
    t.shape = ir::Shape::of(std::move(dims));
    reshaped->type = t;
  }
  return reshaped;
}

PortRef ov_group_filter(NetWriter& w, const ir::Node& n, int64_t groups) {
  const ir::Edge* weights = n.inputs.at(1);
  std::optional<std::vector<int64_t>> dims = known_dims(weights);
  if (!dims || dims->size() < 3 || (*dims)[0] % groups != 0)
    fail(ErrorKind::Unsupported, w.where(n),
         n.op_type + " with group " + std::to_string(groups) +
             " needs weights of known dims whose first is divisible by the group");
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

void add_conv_bias(NetWriter& w, const ir::Node& n, PortRef conv, size_t r) {
  std::vector<int64_t> shape(r + 2, 1);
  shape[1] = -1;
  const std::string name = layer_name(n);
  PortRef b = w.op("Reshape", "opset1", name + "/bias",
                   {w.source(n.inputs.at(2)), w.const_i64(shape, name + "/bias_shape")}, nullptr,
                   {{"special_zero", "false"}});
  w.op("Add", "opset1", name, {conv, b}, out0(w, n), {{"auto_broadcast", "numpy"}});
}

}  // namespace bough::openvino
