// ONNX's Conv, MaxPool and AveragePool as OpenVINO's Convolution-1, MaxPool-1 and AvgPool-1:
// the same window attributes under other names (pads split into pads_begin and pads_end,
// auto_pad in lower case, ceil_mode as rounding_type, count_include_pad as exclude-pad).
// Conv's bias becomes an Add of the bias reshaped to [1, C, 1, ...]. A Conv with `group` is
// GroupConvolution-1, its weights [C_OUT, C_IN/G, k...] reshaped to [G, C_OUT/G, C_IN/G, k...]
// (their dims must be known). MaxPool with Indices or dilations is MaxPool-8 with axis 0,
// whose indices count over the whole input as ONNX's do with storage_order 0 (OpenVINO's
// MaxPool-8 specification); storage_order 1 and AveragePool with dilations are refused.
#include <map>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

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

}  // namespace

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

}  // namespace bough::openvino
