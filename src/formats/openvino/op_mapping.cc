// Each OpenVINO operator becomes one ONNX-domain node, or a few where the attributes need
// it (MatMul's transposes, NotEqual, StridedSlice's masks). Inputs that ONNX wants as
// attributes (Gather's axis, Transpose's order) must be constants.
#include "formats/openvino/op_mapping.h"

#include <cmath>
#include <map>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "ir/float_formats.h"

namespace bough::openvino {

namespace {

using MapFn = void (*)(GraphLowering&, const LayerIO&);

const std::map<std::string, std::string>& unary_ops() {
  static const std::map<std::string, std::string> m{
      {"Relu", "Relu"},         {"Sigmoid", "Sigmoid"}, {"Tanh", "Tanh"},        {"Exp", "Exp"},
      {"Abs", "Abs"},           {"Negative", "Neg"},    {"Sqrt", "Sqrt"},        {"Log", "Log"},
      {"Floor", "Floor"},       {"Ceiling", "Ceil"},    {"Sin", "Sin"},          {"Cos", "Cos"},
      {"Erf", "Erf"},           {"Sign", "Sign"},       {"LogicalNot", "Not"},   {"Tan", "Tan"},
      {"Asin", "Asin"},         {"Acos", "Acos"},       {"Atan", "Atan"},        {"Sinh", "Sinh"},
      {"Cosh", "Cosh"},         {"Asinh", "Asinh"},     {"Acosh", "Acosh"},      {"Atanh", "Atanh"},
      {"SoftPlus", "Softplus"}, {"IsNaN", "IsNaN"},     {"HSwish", "HardSwish"}, {"Mish", "Mish"},
      {"SoftSign", "Softsign"}};
  return m;
}

const std::map<std::string, std::string>& binary_ops() {
  static const std::map<std::string, std::string> m{
      {"Add", "Add"},         {"Subtract", "Sub"},          {"Multiply", "Mul"},
      {"Divide", "Div"},      {"Maximum", "Max"},           {"Minimum", "Min"},
      {"Power", "Pow"},       {"Equal", "Equal"},           {"Less", "Less"},
      {"Greater", "Greater"}, {"LessEqual", "LessOrEqual"}, {"GreaterEqual", "GreaterOrEqual"},
      {"LogicalAnd", "And"},  {"LogicalOr", "Or"},          {"LogicalXor", "Xor"}};
  return m;
}

void map_unary(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  g.node_to(unary_ops().at(io.layer.type), {io.in[0]}, {io.out[0]}, io.layer.name);
}

void map_binary(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  // OpenVINO divides integers rounding down (python division) unless told otherwise; ONNX
  // truncates. They differ for negative quotients, so that case is refused.
  if (l.type == "Divide" && flag(l, "m_pythondiv", true)) {
    const ir::Type& t = io.out[0]->type;
    if (t.kind == ir::Type::Kind::Tensor && is_integer_type(t.elem))
      fail(ErrorKind::Unsupported, g.where(l), "integer Divide with python (floor) division");
  }
  g.node_to(binary_ops().at(l.type), broadcast_operands(g, io), {io.out[0]}, l.name);
}

void map_not_equal(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  ir::Edge* eq = g.node("Equal", broadcast_operands(g, io), io.layer.name + "/equal");
  g.node_to("Not", {eq}, {io.out[0]}, io.layer.name);
}

// FloorMod takes the divisor's sign, which is ONNX's Mod with fmod=0 for integers; ONNX
// only truncates floats, so for them it is x - floor(x / y) * y. (Of an element type the
// file leaves unknown it is Mod with fmod=0, which the checker refuses for floats.) Mod
// takes the dividend's sign (fmod=1).
void map_mod(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  std::vector<ir::Edge*> ins = broadcast_operands(g, io);
  const std::string& name = io.layer.name;
  const ir::Type& t =
      io.out[0]->type.kind == ir::Type::Kind::Tensor ? io.out[0]->type : io.in[0]->type;
  if (io.layer.type == "FloorMod" && t.kind == ir::Type::Kind::Tensor && !is_integer_type(t.elem)) {
    ir::Edge* floor = g.node("Floor", {g.node("Div", ins, name + "/quotient")}, name + "/floor");
    g.node_to("Sub", {ins[0], g.node("Mul", {floor, ins[1]}, name + "/multiple")}, {io.out[0]},
              name);
    return;
  }
  g.node_to("Mod", ins, {io.out[0]}, name)
      ->attributes.push_back(int_attr("fmod", io.layer.type == "Mod" ? 1 : 0));
}

// Elu's alpha, and IsInf's choice of infinities, are attributes in both formats.
void map_elu(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  g.node_to("Elu", {io.in[0]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(
          float_attr("alpha", static_cast<float>(float_data(g, io.layer, "alpha", 1))));
}

void map_is_inf(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  ir::Node* n = g.node_to("IsInf", {io.in[0]}, {io.out[0]}, io.layer.name);
  for (const char* key : {"detect_negative", "detect_positive"})
    n->attributes.push_back(int_attr(key, flag(io.layer, key, true) ? 1 : 0));
}

// ONNX's Round rounds halves to even, one of Round-5's two modes.
void map_round(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string* mode = io.layer.attr("mode");
  if (!mode || *mode != "half_to_even")
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "Round with mode \"" + (mode ? *mode : std::string()) + "\" (ONNX rounds half to even)");
  g.node_to("Round", {io.in[0]}, {io.out[0]}, io.layer.name);
}

void map_convert_like(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  g.node_to("CastLike", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name);
}

// Split-1 cuts into num_splits equal parts (ONNX's num_outputs); VariadicSplit takes the
// lengths as an input, which ONNX's Split takes too, though without OpenVINO's -1 for "the
// rest".
void map_split(GraphLowering& g, const LayerIO& io) {
  const bool variadic = io.layer.type == "VariadicSplit";
  if (io.in.size() != (variadic ? 3u : 2u) || io.out.empty())
    fail(ErrorKind::InvalidModel, g.where(io.layer), io.layer.type + " has the wrong inputs");
  std::vector<int64_t> axis = const_ints(g, io, 1, "the axis input");
  if (axis.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "the axis input holds one value");
  std::vector<ir::Edge*> ins{io.in[0]};
  if (variadic) {
    if (GraphLowering::constant_value(io.in[2]))
      for (int64_t v : const_ints(g, io, 2, "split_lengths"))
        if (v < 0) fail(ErrorKind::Unsupported, g.where(io.layer), "split_lengths with -1");
    ins.push_back(g.as_int64(io.in[2], io.layer.name + "/lengths"));
  }
  ir::Node* n = g.node_to("Split", ins, io.out, io.layer.name);
  n->attributes.push_back(int_attr("axis", axis[0]));
  if (!variadic)
    n->attributes.push_back(int_attr("num_outputs", static_cast<int64_t>(io.out.size())));
}

void map_select(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  g.node_to("Where", broadcast_operands(g, io), {io.out[0]}, io.layer.name);
}

void map_convert(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string* to = io.layer.attr("destination_type");
  auto elem = to ? elem_from_ov(*to) : std::nullopt;
  if (!elem)
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "destination_type \"" + (to ? *to : std::string()) + "\"");
  ir::Node* n = g.node_to("Cast", {io.in[0]}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("to", static_cast<int64_t>(*elem)));
}

// transpose_a/b swap the last two axes of a matrix operand (ignored for vectors).
void map_matmul(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  std::vector<ir::Edge*> ins = io.in;
  const char* keys[2] = {"transpose_a", "transpose_b"};
  for (size_t k = 0; k < 2; ++k) {
    if (!flag(io.layer, keys[k], false)) continue;
    size_t rank = io.layer.inputs[k].shape.dims.size();
    if (rank < 2) continue;
    std::vector<int64_t> perm;
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
    std::swap(perm[rank - 1], perm[rank - 2]);
    ins[k] = g.node("Transpose", {ins[k]}, io.layer.name + "/" + keys[k], ints_attr("perm", perm));
  }
  g.node_to("MatMul", ins, {io.out[0]}, io.layer.name);
}

// special_zero=true: a 0 copies the input's dim, which is ONNX's allowzero=0.
void map_reshape(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  ir::Edge* shape = g.as_int64(io.in[1], io.layer.name + "/shape");
  ir::Node* n = g.node_to("Reshape", {io.in[0], shape}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("allowzero", flag(io.layer, "special_zero", false) ? 0 : 1));
}

// Squeeze and Unsqueeze take their axes as an input in both formats.
void map_axes_op(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 2);
  std::vector<ir::Edge*> ins{io.in[0]};
  if (io.in.size() == 2) ins.push_back(g.as_int64(io.in[1], io.layer.name + "/axes"));
  g.node_to(io.layer.type, ins, {io.out[0]}, io.layer.name);
}

void map_concat(GraphLowering& g, const LayerIO& io) {
  if (io.in.empty() || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "Concat needs inputs and one output");
  ir::Node* n = g.node_to("Concat", io.in, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 0)));
}

void map_shape_of(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string* type = io.layer.attr("output_type");
  if (!type || *type == "i64") {
    g.node_to("Shape", {io.in[0]}, {io.out[0]}, io.layer.name);
    return;
  }
  auto elem = elem_from_ov(*type);
  if (!elem) fail(ErrorKind::Unsupported, g.where(io.layer), "output_type \"" + *type + "\"");
  ir::Edge* shape = g.node("Shape", {io.in[0]}, io.layer.name + "/i64");
  g.node_to("Cast", {shape}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(*elem)));
}

// The rank `l`'s input `k` declares; refused when unknown.
int64_t input_rank(GraphLowering& g, const XmlLayer& l, size_t k, const char* what) {
  const ir::Shape& s = l.inputs.at(k).shape;
  if (!s.rank_known)
    fail(ErrorKind::Unsupported, g.where(l), std::string(what) + " of unknown rank");
  return static_cast<int64_t>(s.dims.size());
}

std::vector<int64_t> iota(int64_t from, int64_t to) {
  std::vector<int64_t> v;
  for (int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Gather-8 with batch_dims b > 0 (OpenVINO's Gather-8 specification: out[b0.., i.., j..] =
// data[b0.., :axis.., indices[b0.., i..], ...]) is ONNX's GatherND with batch_dims b, each
// index a 1-tuple, once data's `axis` is moved next to the batch axes; the output's index
// axes are then moved back after data's axes b..axis-1. Both formats count negative indices
// from the end.
void map_batched_gather(GraphLowering& g, const LayerIO& io, int64_t b, int64_t axis) {
  const XmlLayer& l = io.layer;
  const int64_t r = input_rank(g, l, 0, "Gather with batch_dims: data");
  const int64_t q = input_rank(g, l, 1, "Gather with batch_dims: indices") - b;
  if (axis < 0) axis += r;
  if (axis < b || axis >= r || q < 0)
    fail(ErrorKind::InvalidModel, g.where(l),
         "axis " + std::to_string(axis) + " and batch_dims " + std::to_string(b) +
             " do not fit data of rank " + std::to_string(r));
  ir::Edge* data = io.in[0];
  if (axis != b) {
    std::vector<int64_t> perm = iota(0, b);
    perm.push_back(axis);
    for (int64_t i : iota(b, r))
      if (i != axis) perm.push_back(i);
    data = g.node("Transpose", {data}, l.name + "/axis_first", ints_attr("perm", perm));
  }
  ir::Edge* tuples = g.node("Unsqueeze",
                            {g.as_int64(io.in[1], l.name + "/indices"),
                             g.constant(i64_tensor({-1}), l.name + "/tuple_axis")},
                            l.name + "/tuples");
  if (axis == b) {
    g.node_to("GatherND", {data, tuples}, {io.out[0]}, l.name)
        ->attributes.push_back(int_attr("batch_dims", b));
    return;
  }
  ir::Edge* gathered =
      g.node("GatherND", {data, tuples}, l.name + "/gather_nd", int_attr("batch_dims", b));
  // [batch, indices[b:], data[b:axis], data[axis+1:]] -> [batch, data[b:axis], indices[b:], ...]
  std::vector<int64_t> perm = iota(0, b);
  for (int64_t i : iota(b + q, q + axis)) perm.push_back(i);
  for (int64_t i : iota(b, b + q)) perm.push_back(i);
  for (int64_t i : iota(q + axis, q + r - 1)) perm.push_back(i);
  g.node_to("Transpose", {gathered}, {io.out[0]}, l.name)
      ->attributes.push_back(ints_attr("perm", perm));
}

void map_gather(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  std::vector<int64_t> axis = const_ints(g, io, 2, "the axis input");
  if (axis.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "the axis input holds one value");
  int64_t b = int_data(g, io.layer, "batch_dims", 0);
  if (b < 0) b += input_rank(g, io.layer, 1, "Gather with negative batch_dims: indices");
  if (b != 0) return map_batched_gather(g, io, b, axis[0]);
  g.node_to("Gather", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", axis[0]));
}

// GatherND-8 is ONNX's GatherND; GatherND-5 flattens the batch axes of its output into one
// and is refused for batch_dims > 1 (for 0 and 1 they agree).
void map_gather_nd(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const int64_t b = int_data(g, io.layer, "batch_dims", 0);
  if (b > 1 && io.layer.version == "opset5")
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "GatherND-5 with batch_dims > 1 (its output folds the batch axes into one)");
  ir::Node* n = g.node_to("GatherND", {io.in[0], g.as_int64(io.in[1], io.layer.name + "/indices")},
                          {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("batch_dims", b));
}

void map_gather_elements(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  g.node_to("GatherElements", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 0)));
}

// OpenVINO with no axes reduces nothing; ONNX would reduce everything unless told not to.
void map_reduce(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  ir::Edge* axes = g.as_int64(io.in[1], io.layer.name + "/axes");
  ir::Node* n = g.node_to(io.layer.type, {io.in[0], axes}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("keepdims", flag(io.layer, "keep_dims", false) ? 1 : 0));
  n->attributes.push_back(int_attr("noop_with_empty_axes", 1));
}

void map_softmax(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  g.node_to(io.layer.type, {io.in[0]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 1)));
}

// An empty order reverses the axes, as ONNX's Transpose does without `perm`.
void map_transpose(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  std::vector<int64_t> order = const_ints(g, io, 1, "the order input");
  ir::Node* n = g.node_to("Transpose", {io.in[0]}, {io.out[0]}, io.layer.name);
  if (!order.empty()) n->attributes.push_back(ints_attr("perm", order));
}

// The values an integer type holds, as doubles: exact up to 32 bits; for 64 bits the
// largest double below 2^63 (2^64) is the top; nullopt for other types.
std::optional<std::pair<double, double>> integer_range(ElemType t) {
  switch (t) {
    case ElemType::Int8:
      return std::pair{-128.0, 127.0};
    case ElemType::UInt8:
      return std::pair{0.0, 255.0};
    case ElemType::Int16:
      return std::pair{-32768.0, 32767.0};
    case ElemType::UInt16:
      return std::pair{0.0, 65535.0};
    case ElemType::Int32:
      return std::pair{-2147483648.0, 2147483647.0};
    case ElemType::UInt32:
      return std::pair{0.0, 4294967295.0};
    case ElemType::Int64:
      return std::pair{-9223372036854775808.0, 9223372036854774784.0};
    case ElemType::UInt64:
      return std::pair{0.0, 18446744073709549568.0};
    default:
      return std::nullopt;
  }
}

// `v` as a scalar of type `t` (float, double, float16, bfloat16 or an integer; v must fit
// an integer type); nullopt for other types.
std::optional<Tensor> scalar_of(ElemType t, double v) {
  Tensor s(t, Dims{});
  switch (t) {
    case ElemType::Float:
      *s.data<float>() = static_cast<float>(v);
      break;
    case ElemType::Double:
      *s.data<double>() = v;
      break;
    case ElemType::Float16:
      *s.data<uint16_t>() = float_to_half(static_cast<float>(v));
      break;
    case ElemType::BFloat16:
      *s.data<uint16_t>() = float_to_bfloat16(static_cast<float>(v));
      break;
    case ElemType::Int8:
      *s.data<int8_t>() = static_cast<int8_t>(v);
      break;
    case ElemType::UInt8:
      *s.data<uint8_t>() = static_cast<uint8_t>(v);
      break;
    case ElemType::Int16:
      *s.data<int16_t>() = static_cast<int16_t>(v);
      break;
    case ElemType::UInt16:
      *s.data<uint16_t>() = static_cast<uint16_t>(v);
      break;
    case ElemType::Int32:
      *s.data<int32_t>() = static_cast<int32_t>(v);
      break;
    case ElemType::UInt32:
      *s.data<uint32_t>() = static_cast<uint32_t>(v);
      break;
    case ElemType::Int64:
      *s.data<int64_t>() = static_cast<int64_t>(v);
      break;
    case ElemType::UInt64:
      *s.data<uint64_t>() = static_cast<uint64_t>(v);
      break;
    default:
      return std::nullopt;
  }
  return s;
}

// Clamp-1's bounds are float attributes; ONNX's Clip takes them as inputs of x's type, made
// here as constants of it. For an integer x the specification rounds min up and
// max down (and they must then fit the type, as integer_range gives it).
void map_clamp(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const XmlLayer& l = io.layer;
  const ir::Type& t =
      io.in[0]->type.kind == ir::Type::Kind::Tensor ? io.in[0]->type : io.out[0]->type;
  if (t.kind != ir::Type::Kind::Tensor)
    fail(ErrorKind::Unsupported, g.where(l), "Clamp of an unknown element type");
  if (!l.attr("min") || !l.attr("max"))
    fail(ErrorKind::InvalidModel, g.where(l), "Clamp needs min and max");
  double lo = float_data(g, l, "min", 0), hi = float_data(g, l, "max", 0);
  if (is_integer_type(t.elem)) {
    auto range = integer_range(t.elem);
    lo = std::ceil(lo);
    hi = std::floor(hi);
    if (!range || lo < range->first || hi > range->second)
      fail(ErrorKind::Unsupported, g.where(l),
           "Clamp bounds beyond what " + std::string(elem_name(t.elem)) + " holds");
  }
  auto bound = [&](double v, const std::string& suffix) {
    std::optional<Tensor> c = scalar_of(t.elem, v);
    if (!c) fail(ErrorKind::Unsupported, g.where(l), "Clamp of " + std::string(elem_name(t.elem)));
    return g.constant(std::move(*c), l.name + suffix);
  };
  g.node_to("Clip", {io.in[0], bound(lo, "/min"), bound(hi, "/max")}, {io.out[0]}, l.name);
}

// TopK-1/3/11 as ONNX's TopK (K an int64 [1]): mode max is largest, and ONNX's sorted order
// (by value, equal values lower index first) is one OpenVINO's "value" and "none" allow,
// stable or not; "index" order has no ONNX form but for k 1. Indices are int64 in ONNX,
// converted to index_element_type (i32 by default).
void map_top_k(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.size() != 2 || io.out.size() != 2)
    fail(ErrorKind::InvalidModel, g.where(l), "TopK takes data and k and gives values and indices");
  const std::string* mode = l.attr("mode");
  const std::string* sort = l.attr("sort");
  if (!mode || (*mode != "max" && *mode != "min"))
    fail(ErrorKind::InvalidModel, g.where(l), "mode must be max or min");
  if (sort && *sort == "index") {
    const Tensor* k = GraphLowering::constant_value(io.in[1]);
    if (!k || const_ints(g, io, 1, "k") != std::vector<int64_t>{1})
      fail(ErrorKind::Unsupported, g.where(l), "TopK sorted by index (but for a constant k of 1)");
  }
  const std::string* type = l.attr("index_element_type");
  const bool i64 = type && *type == "i64";
  if (type && !i64 && *type != "i32")
    fail(ErrorKind::InvalidModel, g.where(l), "index_element_type \"" + *type + "\"");
  ir::Edge* k = g.as_int64(io.in[1], l.name + "/k");
  if (l.inputs.at(1).shape.dims.empty())
    k = g.node("Unsqueeze", {k, g.constant(i64_tensor({0}), l.name + "/k_axis")}, l.name + "/k_1d");
  ir::Edge* indices = i64 ? io.out[1]
                          : g.graph()->new_edge(g.model().unique_name(l.name + "/indices_i64"),
                                                ir::Edge::Origin::NodeOutput);
  ir::Node* n = g.node_to("TopK", {io.in[0], k}, {io.out[0], indices}, l.name);
  n->attributes.push_back(int_attr("axis", int_data(g, l, "axis", -1)));
  n->attributes.push_back(int_attr("largest", *mode == "max" ? 1 : 0));
  n->attributes.push_back(int_attr("sorted", 1));
  if (!i64)
    g.node_to("Cast", {indices}, {io.out[1]}, l.name + "/indices")
        ->attributes.push_back(int_attr("to", static_cast<int64_t>(ElemType::Int32)));
}

// Pad-1/-12 as ONNX's Pad, whose pads are pads_begin then pads_end in one input. Modes
// constant, edge and reflect agree for pads >= 0; what edge and reflect do with the
// cropping of negative pads (Pad-12) is not ONNX's to say, so those need constant pads
// that are not negative. symmetric has no ONNX form.
void map_pad(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 4);
  const XmlLayer& l = io.layer;
  const std::string* mode_attr = l.attr("pad_mode");
  const std::string mode = mode_attr ? *mode_attr : "constant";
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    fail(ErrorKind::Unsupported, g.where(l), "pad_mode \"" + mode + "\"");
  if (mode != "constant")
    for (size_t k : {1, 2})
      for (int64_t v : const_ints(g, io, k, "pads of edge or reflect mode"))
        if (v < 0) fail(ErrorKind::Unsupported, g.where(l), mode + " mode with negative pads");
  // Constant pads stay a constant, so that whoever reads the ONNX sees their values.
  ir::Edge* pads = nullptr;
  if (GraphLowering::constant_value(io.in[1]) && GraphLowering::constant_value(io.in[2])) {
    std::vector<int64_t> both = const_ints(g, io, 1, "pads_begin");
    for (int64_t v : const_ints(g, io, 2, "pads_end")) both.push_back(v);
    pads = g.constant(i64_tensor(both), l.name + "/pads");
  } else {
    pads = g.node("Concat",
                  {g.as_int64(io.in[1], l.name + "/begin"), g.as_int64(io.in[2], l.name + "/end")},
                  l.name + "/pads", int_attr("axis", 0));
  }
  std::vector<ir::Edge*> ins{io.in[0], pads};
  if (io.in.size() == 4) ins.push_back(io.in[3]);
  g.node_to("Pad", ins, {io.out[0]}, l.name)->attributes.push_back(string_attr("mode", mode));
}

// Tile-1 pads the shorter of data's rank and repeats' length with leading 1s; ONNX's Tile
// wants them equal, so they must be (by the ports' dims).
void map_tile(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  const ir::Shape& data = l.inputs.at(0).shape;
  const ir::Shape& repeats = l.inputs.at(1).shape;
  if (!data.rank_known || repeats.dims.size() != 1 || !repeats.dims[0].is_known() ||
      repeats.dims[0].value != static_cast<int64_t>(data.dims.size()))
    fail(ErrorKind::Unsupported, g.where(l),
         "Tile whose repeats are not as long as data's rank (ONNX pads neither)");
  g.node_to("Tile", {io.in[0], g.as_int64(io.in[1], l.name + "/repeats")}, {io.out[0]}, l.name);
}

// CumSum-3 is ONNX's CumSum, but for its axis, which may be left out (0).
void map_cum_sum(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 2);
  ir::Edge* axis =
      io.in.size() == 2 ? io.in[1] : g.constant(Tensor::scalar_i64(0), io.layer.name + "/axis");
  ir::Node* n = g.node_to("CumSum", {io.in[0], axis}, {io.out[0]}, io.layer.name);
  for (const char* key : {"exclusive", "reverse"})
    n->attributes.push_back(int_attr(key, flag(io.layer, key, false) ? 1 : 0));
}

// Slice-8 is (data, start, stop, step[, axes]); ONNX's is (data, starts, ends, axes, steps).
void map_slice(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 4, 5);
  const std::string& name = io.layer.name;
  std::vector<ir::Edge*> ins{io.in[0], g.as_int64(io.in[1], name + "/start"),
                             g.as_int64(io.in[2], name + "/stop"),
                             io.in.size() == 5 ? g.as_int64(io.in[4], name + "/axes") : nullptr,
                             g.as_int64(io.in[3], name + "/step")};
  g.node_to("Slice", ins, {io.out[0]}, name);
}

// Range-4 converts its scalars to output_type; ONNX's Range wants them already alike.
void map_range(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  std::vector<ir::Edge*> ins = io.in;
  if (const std::string* type = io.layer.attr("output_type")) {
    auto elem = elem_from_ov(*type);
    if (!elem) fail(ErrorKind::Unsupported, g.where(io.layer), "output_type \"" + *type + "\"");
    const char* names[3] = {"/start", "/stop", "/step"};
    for (size_t k = 0; k < 3; ++k) {
      const ir::Type& t = ins[k]->type;
      if (t.kind == ir::Type::Kind::Tensor && t.elem == *elem) continue;
      ins[k] = g.node("Cast", {ins[k]}, io.layer.name + names[k],
                      int_attr("to", static_cast<int64_t>(*elem)));
    }
  }
  g.node_to("Range", ins, {io.out[0]}, io.layer.name);
}

const std::map<std::string, MapFn>& special_ops() {
  static const std::map<std::string, MapFn> m{{"NotEqual", map_not_equal},
                                              {"Mod", map_mod},
                                              {"FloorMod", map_mod},
                                              {"Select", map_select},
                                              {"Convert", map_convert},
                                              {"ConvertLike", map_convert_like},
                                              {"Split", map_split},
                                              {"VariadicSplit", map_split},
                                              {"MatMul", map_matmul},
                                              {"Reshape", map_reshape},
                                              {"Squeeze", map_axes_op},
                                              {"Unsqueeze", map_axes_op},
                                              {"Concat", map_concat},
                                              {"ShapeOf", map_shape_of},
                                              {"Gather", map_gather},
                                              {"GatherElements", map_gather_elements},
                                              {"GatherND", map_gather_nd},
                                              {"ReduceSum", map_reduce},
                                              {"ReduceMean", map_reduce},
                                              {"ReduceMax", map_reduce},
                                              {"ReduceMin", map_reduce},
                                              {"ReduceProd", map_reduce},
                                              {"ReduceL1", map_reduce},
                                              {"ReduceL2", map_reduce},
                                              {"Elu", map_elu},
                                              {"Convolution", map_convolution},
                                              {"GroupConvolution", map_convolution},
                                              {"LSTMCell", map_rnn},
                                              {"GRUCell", map_rnn},
                                              {"RNNCell", map_rnn},
                                              {"LSTMSequence", map_rnn},
                                              {"GRUSequence", map_rnn},
                                              {"RNNSequence", map_rnn},
                                              {"MaxPool", map_pool},
                                              {"AvgPool", map_pool},
                                              {"IsInf", map_is_inf},
                                              {"Round", map_round},
                                              {"Softmax", map_softmax},
                                              {"LogSoftmax", map_softmax},
                                              {"Transpose", map_transpose},
                                              {"Slice", map_slice},
                                              {"CumSum", map_cum_sum},
                                              {"Clamp", map_clamp},
                                              {"TopK", map_top_k},
                                              {"Pad", map_pad},
                                              {"Tile", map_tile},
                                              {"StridedSlice", map_strided_slice},
                                              {"Range", map_range},
                                              {"Broadcast", map_broadcast},
                                              {"If", lower_if},
                                              {"Loop", lower_loop},
                                              {"TensorIterator", lower_tensor_iterator}};
  return m;
}

MapFn find_mapping(const std::string& type) {
  if (unary_ops().count(type)) return map_unary;
  if (binary_ops().count(type)) return map_binary;
  auto it = special_ops().find(type);
  return it == special_ops().end() ? nullptr : it->second;
}

}  // namespace

bool is_mapped(const std::string& type) { return find_mapping(type) != nullptr; }

void map_layer(GraphLowering& g, const LayerIO& io) {
  MapFn fn = find_mapping(io.layer.type);
  if (!fn)
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "operator " + io.layer.type + " has no mapping");
  fn(g, io);
}

}  // namespace bough::openvino
