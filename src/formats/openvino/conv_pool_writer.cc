// ONNX's Conv, MaxPool and AveragePool as OpenVINO's Convolution-1, MaxPool-1 and AvgPool-1:
// the same window attributes under other names (pads split into pads_begin and pads_end,
// auto_pad in lower case, ceil_mode as rounding_type, count_include_pad as exclude-pad).
// Conv's bias becomes an Add of the bias reshaped to [1, C, 1, ...]; grouped convolutions,
// pooling with dilations and MaxPool's Indices output are refused.
#include <map>

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

}  // namespace

void write_conv(NetWriter& w, const ir::Node& n) {
  if (int_attr_or(n, "group", 1) != 1)
    fail(ErrorKind::Unsupported, w.where(n), "Conv with group other than 1");
  const ir::Edge* weights = n.inputs.at(1);
  const size_t r = spatial_rank(w, n, weights);
  std::map<std::string, std::string> data = window_data(w, n, r);
  data["dilations"] = list_text(ints_attr_or(n, "dilations", std::vector<int64_t>(r, 1)));
  const ir::Edge* bias = n.inputs.size() > 2 ? n.inputs[2] : nullptr;
  const std::string name = layer_name(n);
  PortRef conv =
      w.op("Convolution", "opset1", bias ? name + "/conv" : name,
           {w.source(n.inputs.at(0)), w.source(weights)}, bias ? nullptr : out0(w, n), data);
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
  if (n.outputs.size() > 1 && n.outputs[1])
    fail(ErrorKind::Unsupported, w.where(n), "MaxPool's Indices output");
  for (int64_t d : ints_attr_or(n, "dilations", {}))
    if (d != 1) fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with dilations");
  const ir::Attribute* kernel = n.attr("kernel_shape");
  if (!kernel) fail(ErrorKind::InvalidModel, w.where(n), "no kernel_shape");
  std::map<std::string, std::string> data = window_data(w, n, kernel->ints.size());
  data["kernel"] = list_text(kernel->ints);
  data["rounding_type"] = int_attr_or(n, "ceil_mode", 0) ? "ceil" : "floor";
  if (!max) data["exclude-pad"] = int_attr_or(n, "count_include_pad", 0) ? "false" : "true";
  w.op(max ? "MaxPool" : "AvgPool", "opset1", layer_name(n), {w.source(n.inputs.at(0))}, out0(w, n),
       data);
}

}  // namespace bough::openvino
