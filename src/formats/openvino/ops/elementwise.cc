// Elementwise operators, both ways: the unary and binary ones that map one to one (the
// pairs below), and those whose attributes or semantics need more (Mod, Round, Convert,
// variadic Sum/Mean/Max/Min, Reciprocal). Binary layers broadcast by their auto_broadcast
// (broadcast.cc).
#include <map>
#include <optional>
#include <stdexcept>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// An OpenVINO operator, its ONNX counterpart, and the opset OpenVINO names its version by.
struct Pair {
  std::string ov;
  std::string onnx;
  int opset;
};

const std::vector<Pair>& unary_pairs() {
  static const std::vector<Pair> v{
      {"Relu", "Relu", 1},         {"Sigmoid", "Sigmoid", 1},  {"Tanh", "Tanh", 1},
      {"Exp", "Exp", 1},           {"Abs", "Abs", 1},          {"Negative", "Neg", 1},
      {"Sqrt", "Sqrt", 1},         {"Log", "Log", 1},          {"Floor", "Floor", 1},
      {"Ceiling", "Ceil", 1},      {"Sin", "Sin", 1},          {"Cos", "Cos", 1},
      {"Tan", "Tan", 1},           {"Asin", "Asin", 1},        {"Acos", "Acos", 1},
      {"Atan", "Atan", 1},         {"Sinh", "Sinh", 1},        {"Cosh", "Cosh", 1},
      {"Asinh", "Asinh", 4},       {"Acosh", "Acosh", 4},      {"Atanh", "Atanh", 4},
      {"Erf", "Erf", 1},           {"Sign", "Sign", 1},        {"LogicalNot", "Not", 1},
      {"SoftPlus", "Softplus", 4}, {"IsNaN", "IsNaN", 10},     {"HSwish", "HardSwish", 4},
      {"Mish", "Mish", 4},         {"SoftSign", "Softsign", 9}};
  return v;
}

const std::vector<Pair>& binary_pairs() {
  static const std::vector<Pair> v{{"Add", "Add", 1},
                                   {"Subtract", "Sub", 1},
                                   {"Multiply", "Mul", 1},
                                   {"Divide", "Div", 1},
                                   {"Maximum", "Max", 1},
                                   {"Minimum", "Min", 1},
                                   {"Power", "Pow", 1},
                                   {"Equal", "Equal", 1},
                                   {"Less", "Less", 1},
                                   {"Greater", "Greater", 1},
                                   {"LessEqual", "LessOrEqual", 1},
                                   {"GreaterEqual", "GreaterOrEqual", 1},
                                   {"LogicalAnd", "And", 1},
                                   {"LogicalOr", "Or", 1},
                                   {"LogicalXor", "Xor", 1}};
  return v;
}

const Pair& pair_of_ov(const std::vector<Pair>& pairs, const std::string& type) {
  for (const Pair& p : pairs)
    if (type == p.ov) return p;
  throw std::logic_error("no elementwise pair for " + type);
}

const Pair& pair_of_onnx(const std::vector<Pair>& pairs, const std::string& type) {
  for (const Pair& p : pairs)
    if (type == p.onnx) return p;
  throw std::logic_error("no elementwise pair for " + type);
}

void map_unary(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  g.node_to(pair_of_ov(unary_pairs(), canonical_type(io.layer)).onnx, {io.in[0]}, {io.out[0]},
            io.layer.name);
}

void write_unary(NetWriter& w, const ir::Node& n) {
  const Pair& p = pair_of_onnx(unary_pairs(), n.op_type);
  w.op(p.ov, "opset" + std::to_string(p.opset), layer_name(n), sources(w, n), out0(w, n));
}

void map_binary(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  const std::string& type = canonical_type(l);
  // OpenVINO divides integers rounding down (python division) unless told otherwise; ONNX
  // truncates. They differ for negative quotients, so that case is refused.
  if (type == "Divide" && flag(l, "m_pythondiv", true)) {
    const ir::Type& t = io.out[0]->type;
    if (t.kind == ir::Type::Kind::Tensor && is_integer_type(t.elem))
      fail(ErrorKind::Unsupported, g.where(l), "integer Divide with python (floor) division");
  }
  const std::string& onnx = pair_of_ov(binary_pairs(), type).onnx;
  std::vector<ir::Edge*> ins = broadcast_operands(g, io);
  // ONNX's elementwise operators have no 4-bit rows; OpenVINO's Add and its kin take u4 and
  // i4, which its CPU plugin computes as u8 and i8 (ConvertPrecision {u4: u8, i4: i8} in
  // src/plugins/intel_cpu/src/transformations/transformation_pipeline.cpp; the core's
  // evaluate has no 4-bit types at all, src/core/src/op/add.cpp). So do these: operands
  // widened to 8 bits, and a 4-bit result narrowed back by Cast.
  bool widened = false;
  for (size_t k = 0; k < ins.size(); ++k) {
    const ir::Type& t = ins[k]->type;
    if (t.kind != ir::Type::Kind::Tensor || (t.elem != ElemType::UInt4 && t.elem != ElemType::Int4))
      continue;
    const ElemType wide = t.elem == ElemType::UInt4 ? ElemType::UInt8 : ElemType::Int8;
    ins[k] = g.node("Cast", {ins[k]}, l.name + "/wide" + std::to_string(k),
                    int_attr("to", static_cast<int64_t>(wide)));
    widened = true;
  }
  const ir::Type& out = io.out[0]->type;
  const bool narrow = widened && out.kind == ir::Type::Kind::Tensor &&
                      (out.elem == ElemType::UInt4 || out.elem == ElemType::Int4);
  if (!narrow) {
    g.node_to(onnx, ins, {io.out[0]}, l.name);
    return;
  }
  ir::Edge* wide = g.node(onnx, ins, l.name + "/wide");
  g.node_to("Cast", {wide}, {io.out[0]}, l.name + "/narrow")
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(out.elem)));
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
  const std::string& type = canonical_type(io.layer);
  const ir::Type& t =
      io.out[0]->type.kind == ir::Type::Kind::Tensor ? io.out[0]->type : io.in[0]->type;
  if (type == "FloorMod" && t.kind == ir::Type::Kind::Tensor && !is_integer_type(t.elem)) {
    ir::Edge* floor = g.node("Floor", {g.node("Div", ins, name + "/quotient")}, name + "/floor");
    g.node_to("Sub", {ins[0], g.node("Mul", {floor, ins[1]}, name + "/multiple")}, {io.out[0]},
              name);
    return;
  }
  g.node_to("Mod", ins, {io.out[0]}, name)
      ->attributes.push_back(int_attr("fmod", type == "Mod" ? 1 : 0));
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
  const std::string mode = enum_data(io.layer, "mode", "");
  if (mode != "half_to_even")
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "Round with mode \"" + mode + "\" (ONNX rounds half to even)");
  g.node_to("Round", {io.in[0]}, {io.out[0]}, io.layer.name);
}

// BitwiseAnd/Or/Xor/Not-13 are ONNX's Bitwise* for integers; of bool they are logical (as
// OpenVINO's reference has it), which ONNX's Bitwise* do not take: And, Or, Xor, Not.
void map_bitwise(GraphLowering& g, const LayerIO& io) {
  const std::string& type = canonical_type(io.layer);
  const bool unary = type == "BitwiseNot";
  check_inputs(g, io, unary ? 1 : 2, unary ? 1 : 2);
  const ir::Type& t =
      io.in[0]->type.kind == ir::Type::Kind::Tensor ? io.in[0]->type : io.out[0]->type;
  if (t.kind != ir::Type::Kind::Tensor)
    fail(ErrorKind::Unsupported, g.where(io.layer), type + " of an unknown element type");
  const std::string op =
      t.elem != ElemType::Bool ? type : type.substr(std::string("Bitwise").size());
  g.node_to(op, unary ? io.in : broadcast_operands(g, io), {io.out[0]}, io.layer.name);
}

void write_bitwise(NetWriter& w, const ir::Node& n) {
  std::map<std::string, std::string> data;
  if (n.op_type != "BitwiseNot") data["auto_broadcast"] = "numpy";
  w.op(n.op_type, "opset13", layer_name(n), sources(w, n), out0(w, n), data);
}

void map_convert_like(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  g.node_to("CastLike", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name);
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

void write_elu(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* alpha = n.attr("alpha");
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", alpha ? alpha->f : 1.0f);
  w.op("Elu", "opset1", layer_name(n), sources(w, n), out0(w, n), {{"alpha", text}});
}

void write_is_inf(NetWriter& w, const ir::Node& n) {
  auto flag = [&](const char* key) { return int_attr_or(n, key, 1) ? "true" : "false"; };
  w.op(
      "IsInf", "opset10", layer_name(n), sources(w, n), out0(w, n),
      {{"detect_negative", flag("detect_negative")}, {"detect_positive", flag("detect_positive")}});
}

// ONNX's Mod takes the divisor's sign (fmod=0), as OpenVINO's FloorMod does, or the
// dividend's (fmod=1), as OpenVINO's Mod does.
void write_mod(NetWriter& w, const ir::Node& n) {
  w.op(int_attr_or(n, "fmod", 0) ? "Mod" : "FloorMod", "opset1", layer_name(n), sources(w, n),
       out0(w, n), {{"auto_broadcast", "numpy"}});
}

void write_variadic(NetWriter& w, const ir::Node& n);

// ONNX integer division truncates, which is OpenVINO's Divide without python division.
void write_binary(NetWriter& w, const ir::Node& n) {
  if ((n.op_type == "Max" || n.op_type == "Min") && n.inputs.size() != 2)
    return write_variadic(w, n);
  if (n.inputs.size() != 2)
    fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with other than two inputs");
  std::map<std::string, std::string> data{{"auto_broadcast", "numpy"}};
  // Before opset 7, broadcast=1 lays B into A from `axis` (at the end without one): that is
  // OpenVINO's pdpd rule, whose axis -1 means the end too.
  if (w.opset() < 7 && int_attr_or(n, "broadcast", 0) != 0)
    data = {{"auto_broadcast", "pdpd"}, {"axis", std::to_string(int_attr_or(n, "axis", -1))}};
  if (n.op_type == "Div") data["m_pythondiv"] = "false";
  w.op(pair_of_onnx(binary_pairs(), n.op_type).ov, "opset1", layer_name(n), sources(w, n),
       out0(w, n), data);
}

// ONNX's Cast and CastLike to a float8 type with saturate=0 turn values out of range into
// NaN or infinity; OpenVINO's Convert (which the reader takes as saturating) has no such mode.
void check_saturation(NetWriter& w, const ir::Node& n, ElemType to) {
  bool float8 = to == ElemType::Float8E4M3FN || to == ElemType::Float8E4M3FNUZ ||
                to == ElemType::Float8E5M2 || to == ElemType::Float8E5M2FNUZ;
  if (float8 && int_attr_or(n, "saturate", 1) == 0)
    fail(ErrorKind::Unsupported, w.where(n),
         n.op_type + " to a float8 type with saturate=0 (OpenVINO's Convert saturates)");
}

void write_cast(NetWriter& w, const ir::Node& n) {
  auto to = static_cast<ElemType>(int_attr_or(n, "to", 0));
  check_saturation(w, n, to);
  std::string_view name =
      is_valid_elem_code(static_cast<int>(to)) ? ov_elem_name(to) : std::string_view();
  if (name.empty())
    fail(ErrorKind::Unsupported, w.where(n), "Cast to a type OpenVINO does not have");
  w.op("Convert", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"destination_type", std::string(name)}});
}

void write_where(NetWriter& w, const ir::Node& n) {
  w.op("Select", "opset1", layer_name(n), sources(w, n), out0(w, n), {{"auto_broadcast", "numpy"}});
}

// 1 / x, with the 1 converted to x's type at run time.
void write_reciprocal(NetWriter& w, const ir::Node& n) {
  std::string name = layer_name(n);
  PortRef x = w.source(n.inputs.at(0));
  PortRef one = w.op("ConvertLike", "opset1", name + "/one",
                     {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{1}),
                                 name + "/one_f32"),
                      x},
                     nullptr);
  w.op("Divide", "opset1", name, {one, x}, out0(w, n),
       {{"auto_broadcast", "numpy"}, {"m_pythondiv", "false"}});
}

void write_cast_like(NetWriter& w, const ir::Node& n) {
  const ir::Edge* like = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  if (like && like->type.kind == ir::Type::Kind::Tensor) check_saturation(w, n, like->type.elem);
  w.op("ConvertLike", "opset1", layer_name(n), sources(w, n), out0(w, n));
}

// Sum, Mean, Max and Min of any number of inputs: a chain of Add (Maximum, Minimum), the
// Mean then divided by the count, converted like the sum.
void write_variadic(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const std::map<std::string, std::string> pairwise{
      {"Sum", "Add"}, {"Mean", "Add"}, {"Max", "Maximum"}, {"Min", "Minimum"}};
  std::vector<PortRef> ins = sources(w, n);
  if (ins.empty()) fail(ErrorKind::InvalidModel, w.where(n), n.op_type + " without inputs");
  const bool mean = n.op_type == "Mean" && ins.size() > 1;
  PortRef acc = ins[0];
  for (size_t k = 1; k < ins.size(); ++k) {
    const bool last = k + 1 == ins.size() && !mean;
    acc = w.op(pairwise.at(n.op_type), "opset1", last ? name : name + "/" + std::to_string(k),
               {acc, ins[k]}, last ? out0(w, n) : nullptr, {{"auto_broadcast", "numpy"}});
  }
  if (ins.size() == 1) return w.bind(out0(w, n), acc);
  if (!mean) return;
  PortRef count =
      w.op("ConvertLike", "opset1", name + "/count",
           {w.constant(Tensor::from_vector(ElemType::Float, {},
                                           std::vector<float>{static_cast<float>(ins.size())}),
                       name + "/count_f32"),
            acc},
           nullptr);
  w.op("Divide", "opset1", name, {acc, count}, out0(w, n),
       {{"auto_broadcast", "numpy"}, {"m_pythondiv", "false"}});
}

// ONNX's Round rounds halves to even, one of Round-5's modes.
void write_round(NetWriter& w, const ir::Node& n) {
  w.op("Round", "opset5", layer_name(n), sources(w, n), out0(w, n), {{"mode", "half_to_even"}});
}

}  // namespace

OpFamily elementwise_family() {
  OpFamily f;
  for (const Pair& p : unary_pairs()) {
    f.reads.push_back({p.ov, std::to_string(p.opset), map_unary});
    f.writes.push_back({p.onnx, p.ov + "-" + std::to_string(p.opset), write_unary});
  }
  for (const Pair& p : binary_pairs()) {
    f.reads.push_back({p.ov, "1", map_binary});
    f.writes.push_back({p.onnx, p.ov + "-1", write_binary});
  }
  f.reads.insert(f.reads.end(), {{"NotEqual", "1", map_not_equal},
                                 {"Mod", "1", map_mod},
                                 {"FloorMod", "1", map_mod},
                                 {"Elu", "1", map_elu},
                                 {"IsInf", "10", map_is_inf},
                                 {"Round", "5", map_round},
                                 {"Select", "1", map_select},
                                 {"Convert", "1", map_convert},
                                 {"ConvertLike", "1", map_convert_like}});
  for (const char* type : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"}) {
    f.reads.push_back({type, "13", map_bitwise});
    f.writes.push_back({type, std::string(type) + "-13", write_bitwise});
  }
  f.writes.insert(f.writes.end(), {{"Mod", "Mod-1 FloorMod-1", write_mod},
                                   {"Elu", "Elu-1", write_elu},
                                   {"IsInf", "IsInf-10", write_is_inf},
                                   {"Round", "Round-5", write_round},
                                   {"Where", "Select-1", write_where},
                                   {"Cast", "Convert-1", write_cast},
                                   {"CastLike", "ConvertLike-1", write_cast_like},
                                   {"Reciprocal", "Divide-1 ConvertLike-1", write_reciprocal},
                                   {"Sum", "Add-1", write_variadic},
                                   {"Mean", "Add-1 Divide-1", write_variadic}});
  return f;
}

}  // namespace bough::openvino
