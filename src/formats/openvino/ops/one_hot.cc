// OneHot, both ways. OpenVINO's OneHot-1 and -16 take indices, depth, on_value and off_value
// (scalars) and an `axis`; ONNX's OneHot takes indices, depth and values = [off, on].
//
// The two differ on negative indices. ONNX counts them from the back (-1 is depth - 1, and
// indices outside [-depth, depth) give a row of off values). OpenVINO's OneHot-1 ignores them
// (a row of off values; its reference, reference/one_hot.hpp), and so does OneHot-16 in its
// default negative_indices_mode "ignore_negative"; "normalize" is ONNX's rule. Read in
// ignore mode, a negative index is first replaced by its type's largest value, which ONNX
// also ignores (Where(indices < 0, MAX, indices)).
//
// ONNX's OneHot is written as OneHot-16 in "normalize" mode, its on and off values gathered
// from `values` and its depth made a scalar of the indices' type (int64 where that is not
// known), as OpenVINO wants them; indices of a type other than int32 and int64 are refused.
#include <limits>
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// The largest value of a signed integer type.
std::optional<Tensor> largest(ElemType t) {
  switch (t) {
    case ElemType::Int8:
      return scalar_of(t, std::numeric_limits<int8_t>::max());
    case ElemType::Int16:
      return scalar_of(t, std::numeric_limits<int16_t>::max());
    case ElemType::Int32:
      return scalar_of(t, std::numeric_limits<int32_t>::max());
    case ElemType::Int64: {
      Tensor s(t, Dims{});
      *s.data<int64_t>() = std::numeric_limits<int64_t>::max();
      return s;
    }
    default:
      return std::nullopt;
  }
}

// negative_indices_mode: OneHot-16's attribute ("ignore_negative" as OpenVINO's reader spells
// it, "ignore-negative" as its specification does, or "normalize"); OneHot-1 ignores.
bool normalizes(GraphLowering& g, const XmlLayer& l) {
  if (op_version(l) < 16) return false;
  const std::string mode = enum_data(l, "negative_indices_mode", "ignore_negative");
  if (mode == "normalize") return true;
  if (mode == "ignore_negative" || mode == "ignore-negative") return false;
  fail(ErrorKind::InvalidModel, g.where(l),
       "negative_indices_mode \"" + *l.attr("negative_indices_mode") + "\"");
}

void map_one_hot(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 4, 4);
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  if (!l.attr("axis")) fail(ErrorKind::InvalidModel, g.where(l), "no axis");
  const int64_t axis = int_data(g, l, "axis", -1);
  ir::Edge* indices = io.in[0];
  const ir::Type& t = indices->type;
  if (t.kind != ir::Type::Kind::Tensor || !is_integer_type(t.elem))
    fail(ErrorKind::Unsupported, g.where(l), "OneHot whose indices are not of an integer type");
  if (!normalizes(g, l) && is_signed_integer(t.elem)) {
    std::optional<Tensor> max = largest(t.elem);
    if (!max)
      fail(ErrorKind::Unsupported, g.where(l),
           "OneHot with indices of type " + std::string(elem_name(t.elem)));
    ir::Edge* negative = g.node(
        "Less", {indices, g.constant(*scalar_of(t.elem, 0), name + "/zero")}, name + "/negative");
    indices = g.node("Where", {negative, g.constant(*max, name + "/ignored"), indices},
                     name + "/indices");
    indices->type = t;  // kept through ONNX, for the writer's check of the indices' type
  }
  ir::Edge* one = g.constant(i64_tensor({1}), name + "/one_value");
  ir::Edge* off = g.node("Reshape", {io.in[3], one}, name + "/off");
  ir::Edge* on = g.node("Reshape", {io.in[2], one}, name + "/on");
  ir::Edge* values = g.node("Concat", {off, on}, name + "/values", int_attr("axis", 0));
  g.node_to("OneHot", {indices, io.in[1], values}, {io.out[0]}, name)
      ->attributes.push_back(int_attr("axis", axis));
}

// Element k of `values` as a scalar.
PortRef value_at(NetWriter& w, const ir::Node& n, int64_t k, const char* what) {
  const std::string name = layer_name(n) + "/" + what;
  return w.op("Gather", "opset8", name,
              {w.source(n.inputs.at(2)), w.constant(Tensor::scalar_i64(k), name + "_index"),
               w.constant(Tensor::scalar_i64(0), name + "_axis")},
              nullptr, {{"batch_dims", "0"}});
}

void write_one_hot(NetWriter& w, const ir::Node& n) {
  if (n.inputs.size() != 3) fail(ErrorKind::InvalidModel, w.where(n), "OneHot takes 3 inputs");
  const ir::Type& t = n.inputs[0]->type;
  const bool known = t.kind == ir::Type::Kind::Tensor;
  if (known && t.elem != ElemType::Int32 && t.elem != ElemType::Int64)
    fail(ErrorKind::Unsupported, w.where(n),
         "OneHot whose indices are not int32 or int64 (OpenVINO's OneHot takes only those)");
  const ElemType depth_type = known ? t.elem : ElemType::Int64;
  const std::string name = layer_name(n);
  const ir::Edge* depth = n.inputs[1];
  PortRef depth_port;
  if (depth->data && depth->data->numel() == 1) {
    // Truncated to an integer, as ONNX's OneHot takes a depth of any numeric type.
    depth_port = w.constant(
        *scalar_of(depth_type,
                   static_cast<double>(static_cast<int64_t>(depth->data->get_double(0)))),
        name + "/depth");
  } else {
    PortRef scalar = w.op("Reshape", "opset1", name + "/depth_scalar",
                          {w.source(depth), w.const_i64({}, name + "/scalar_shape")}, nullptr,
                          {{"special_zero", "false"}});
    depth_port = w.op("Convert", "opset1", name + "/depth", {scalar}, nullptr,
                      {{"destination_type", depth_type == ElemType::Int32 ? "i32" : "i64"}});
  }
  w.op("OneHot", "opset16", name,
       {w.source(n.inputs[0]), depth_port, value_at(w, n, 1, "on"), value_at(w, n, 0, "off")},
       out0(w, n),
       {{"axis", std::to_string(int_attr_or(n, "axis", -1))},
        {"negative_indices_mode", "normalize"}});
}

}  // namespace

OpFamily one_hot_family() {
  return {{{"OneHot", "1 16", map_one_hot}}, {{"OneHot", "OneHot-16", write_one_hot}}};
}

}  // namespace bough::openvino
