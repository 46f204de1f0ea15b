// ONNX-domain nodes as OpenVINO opset layers: the inverse of op_mapping.cc. Values that
// ONNX keeps in attributes (axes, perm) become Const inputs; Identity writes nothing and
// lets its output stand for its input.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/net_writer.h"
#include "formats/openvino/write_helpers.h"
#include "formats/openvino/writer.h"
#include "ir/float_formats.h"

namespace bough::openvino {

namespace {

using WriteFn = void (*)(NetWriter&, const ir::Node&);

// ONNX operator -> OpenVINO operator and the opset that introduced it.
const std::map<std::string, std::pair<std::string, std::string>>& unary() {
  static const std::map<std::string, std::pair<std::string, std::string>> m{
      {"Relu", {"Relu", "opset1"}},      {"Sigmoid", {"Sigmoid", "opset1"}},
      {"Tanh", {"Tanh", "opset1"}},      {"Exp", {"Exp", "opset1"}},
      {"Abs", {"Abs", "opset1"}},        {"Neg", {"Negative", "opset1"}},
      {"Sqrt", {"Sqrt", "opset1"}},      {"Log", {"Log", "opset1"}},
      {"Floor", {"Floor", "opset1"}},    {"Ceil", {"Ceiling", "opset1"}},
      {"Sin", {"Sin", "opset1"}},        {"Cos", {"Cos", "opset1"}},
      {"Tan", {"Tan", "opset1"}},        {"Asin", {"Asin", "opset1"}},
      {"Acos", {"Acos", "opset1"}},      {"Atan", {"Atan", "opset1"}},
      {"Sinh", {"Sinh", "opset1"}},      {"Cosh", {"Cosh", "opset1"}},
      {"Asinh", {"Asinh", "opset4"}},    {"Acosh", {"Acosh", "opset4"}},
      {"Atanh", {"Atanh", "opset4"}},    {"Softplus", {"SoftPlus", "opset4"}},
      {"Erf", {"Erf", "opset1"}},        {"Sign", {"Sign", "opset1"}},
      {"Not", {"LogicalNot", "opset1"}}, {"IsNaN", {"IsNaN", "opset10"}},
      {"Round", {"Round", "opset5"}},    {"HardSwish", {"HSwish", "opset4"}},
      {"Mish", {"Mish", "opset4"}},      {"Softsign", {"SoftSign", "opset9"}}};
  return m;
}

const std::map<std::string, std::string>& binary() {
  static const std::map<std::string, std::string> m{
      {"Add", "Add"},         {"Sub", "Subtract"},          {"Mul", "Multiply"},
      {"Div", "Divide"},      {"Max", "Maximum"},           {"Min", "Minimum"},
      {"Pow", "Power"},       {"Equal", "Equal"},           {"Less", "Less"},
      {"Greater", "Greater"}, {"LessOrEqual", "LessEqual"}, {"GreaterOrEqual", "GreaterEqual"},
      {"And", "LogicalAnd"},  {"Or", "LogicalOr"},          {"Xor", "LogicalXor"}};
  return m;
}

void write_unary(NetWriter& w, const ir::Node& n) {
  const auto& [type, version] = unary().at(n.op_type);
  std::map<std::string, std::string> data;
  if (type == "Round") data["mode"] = "half_to_even";  // ONNX's rounding
  w.op(type, version, layer_name(n), sources(w, n), out0(w, n), data);
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

// ONNX's Flatten reshapes to [d0 * .. * d(axis-1), the rest]: the first is written as 1
// (axis 0), as 0 with special_zero (axis 1: keep d0), or as its value when those dims are
// known.
void write_flatten(NetWriter& w, const ir::Node& n) {
  const ir::Edge* x = n.inputs.at(0);
  const ir::Shape& s = x->type.shape;
  int64_t axis = int_attr_or(n, "axis", 1);
  if (axis < 0 && s.rank_known) axis += static_cast<int64_t>(s.dims.size());
  if (axis < 0) fail(ErrorKind::Unsupported, w.where(n), "Flatten of unknown rank");
  int64_t head = axis == 1 ? 0 : 1;
  for (int64_t i = 0; axis > 1 && i < axis; ++i) {
    if (!s.rank_known || i >= static_cast<int64_t>(s.dims.size()) || !s.dims[i].is_known())
      fail(ErrorKind::Unsupported, w.where(n),
           "Flatten at axis " + std::to_string(axis) + " of dims not all known");
    head *= s.dims[i].value;
  }
  std::string name = layer_name(n);
  w.op("Reshape", "opset1", name, {w.source(x), w.const_i64({head, -1}, name + "/shape")},
       out0(w, n), {{"special_zero", axis == 1 ? "true" : "false"}});
}

// ONNX integer division truncates, which is OpenVINO's Divide without python division.
void write_variadic(NetWriter& w, const ir::Node& n);

void write_binary(NetWriter& w, const ir::Node& n) {
  if ((n.op_type == "Max" || n.op_type == "Min") && n.inputs.size() != 2)
    return write_variadic(w, n);
  if (n.inputs.size() != 2)
    fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with other than two inputs");
  std::map<std::string, std::string> data{{"auto_broadcast", "numpy"}};
  if (n.op_type == "Div") data["m_pythondiv"] = "false";
  w.op(binary().at(n.op_type), "opset1", layer_name(n), sources(w, n), out0(w, n), data);
}

void write_identity(NetWriter& w, const ir::Node& n) {
  w.bind(out0(w, n), w.source(n.inputs.at(0)));
}

void write_constant(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("value");
  Tensor t;
  if (a && a->kind == ir::Attribute::Kind::Tensor)
    t = a->t;
  else if ((a = n.attr("value_float")))
    t = Tensor::from_vector(ElemType::Float, {}, std::vector<float>{a->f});
  else if ((a = n.attr("value_int")))
    t = Tensor::scalar_i64(a->i);
  else if ((a = n.attr("value_ints")))
    t = Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(a->ints.size())}, a->ints);
  else if ((a = n.attr("value_floats")))
    t = Tensor::from_vector(ElemType::Float, {static_cast<int64_t>(a->floats.size())}, a->floats);
  else
    fail(ErrorKind::Unsupported, w.where(n), "a Constant without a tensor, float or int value");
  w.bind(out0(w, n), w.constant(t, out0(w, n)->name));
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

void write_matmul(NetWriter& w, const ir::Node& n) {
  w.op("MatMul", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"transpose_a", "false"}, {"transpose_b", "false"}});
}

void write_reshape(NetWriter& w, const ir::Node& n) {
  bool allowzero = int_attr_or(n, "allowzero", 0) != 0;
  w.op("Reshape", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"special_zero", allowzero ? "false" : "true"}});
}

void write_squeeze_like(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  if (auto axes = axes_of(w, n, 1, "axes"))
    ins.push_back(*axes);
  else if (n.op_type == "Unsqueeze")
    fail(ErrorKind::InvalidModel, w.where(n), "Unsqueeze without axes");
  w.op(n.op_type, "opset1", layer_name(n), ins, out0(w, n));
}

void write_concat(NetWriter& w, const ir::Node& n) {
  w.op("Concat", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"axis", std::to_string(int_attr_or(n, "axis", 0))}});
}

// Shape's start and end (opset 15) slice the shape vector.
void write_shape(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* start = n.attr("start");
  const ir::Attribute* end = n.attr("end");
  if (!start && !end) {
    w.op("ShapeOf", "opset3", layer_name(n), sources(w, n), out0(w, n), {{"output_type", "i64"}});
    return;
  }
  std::string name = layer_name(n);
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", sources(w, n), nullptr, {{"output_type", "i64"}});
  w.op("Slice", "opset8", name,
       {shape, w.const_i64({start ? start->i : 0}, name + "/start"),
        w.const_i64({end ? end->i : std::numeric_limits<int64_t>::max()}, name + "/stop"),
        w.const_i64({1}, name + "/step")},
       out0(w, n));
}

// Size is the product of the shape.
void write_size(NetWriter& w, const ir::Node& n) {
  std::string name = layer_name(n);
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", sources(w, n), nullptr, {{"output_type", "i64"}});
  w.op("ReduceProd", "opset1", name, {shape, w.const_i64({0}, name + "/axes")}, out0(w, n),
       {{"keep_dims", "false"}});
}

// ConstantOfShape broadcasts its one-element value (0.0f by default) to the shape.
void write_constant_of_shape(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("value");
  Tensor value = a ? a->t : Tensor::zeros(ElemType::Float, {1});
  if (value.numel() != 1)
    fail(ErrorKind::InvalidModel, w.where(n), "the value must hold one element");
  Tensor scalar(value.type(), Dims{});
  std::memcpy(scalar.raw(), value.raw(), value.nbytes());
  std::string name = layer_name(n);
  w.op("Broadcast", "opset3", name, {w.constant(scalar, name + "/value"), w.source(n.inputs.at(0))},
       out0(w, n), {{"mode", "numpy"}});
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

// Split with lengths (an input from opset 13, an attribute before) is VariadicSplit;
// without, it is Split into as many equal parts as it has outputs.
void write_split(NetWriter& w, const ir::Node& n) {
  std::string name = layer_name(n);
  XmlLayer l;
  l.name = name;
  l.version = "opset1";
  std::vector<PortRef> ins{
      w.source(n.inputs.at(0)),
      w.constant(Tensor::scalar_i64(int_attr_or(n, "axis", 0)), name + "/axis")};
  if (auto lengths = axes_of(w, n, 1, "split")) {
    l.type = "VariadicSplit";
    ins.push_back(*lengths);
  } else {
    l.type = "Split";
    l.data = {{"num_splits", std::to_string(n.outputs.size())}};
  }
  for (const ir::Edge* e : n.outputs) {
    if (!e) fail(ErrorKind::Unsupported, w.where(n), "Split with an omitted output");
    l.outputs.push_back(NetWriter::port_of(e));
  }
  int64_t id = w.add(std::move(l), ins);
  for (size_t k = 0; k < n.outputs.size(); ++k)
    w.bind(n.outputs[k], {id, static_cast<int64_t>(ins.size() + k)});
}

void write_cast_like(NetWriter& w, const ir::Node& n) {
  const ir::Edge* like = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  if (like && like->type.kind == ir::Type::Kind::Tensor) check_saturation(w, n, like->type.elem);
  w.op("ConvertLike", "opset1", layer_name(n), sources(w, n), out0(w, n));
}

void write_gather(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins = sources(w, n);
  ins.push_back(w.const_i64({int_attr_or(n, "axis", 0)}, layer_name(n) + "/axis"));
  w.op("Gather", "opset8", layer_name(n), ins, out0(w, n), {{"batch_dims", "0"}});
}

// ONNX's GatherND is GatherND-8 (GatherND-5 would fold the batch axes of its output).
void write_gather_nd(NetWriter& w, const ir::Node& n) {
  w.op("GatherND", "opset8", layer_name(n), sources(w, n), out0(w, n),
       {{"batch_dims", std::to_string(int_attr_or(n, "batch_dims", 0))}});
}

void write_gather_elements(NetWriter& w, const ir::Node& n) {
  w.op("GatherElements", "opset6", layer_name(n), sources(w, n), out0(w, n),
       {{"axis", std::to_string(int_attr_or(n, "axis", 0))}});
}

// Axes are an input of ReduceSum from opset 13 and of the others from opset 18.
// 0, 1, ..., rank(x) - 1, for an x whose rank is known only at run time.
PortRef every_axis(NetWriter& w, PortRef x, const std::string& name) {
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", {x}, nullptr, {{"output_type", "i64"}});
  PortRef rank =
      w.op("ShapeOf", "opset3", name + "/rank", {shape}, nullptr, {{"output_type", "i64"}});
  PortRef count = w.op("Squeeze", "opset1", name + "/rank_scalar",
                       {rank, w.const_i64({0}, name + "/rank_axis")}, nullptr);
  return w.op("Range", "opset4", name + "/axes",
              {w.constant(Tensor::scalar_i64(0), name + "/zero"), count,
               w.constant(Tensor::scalar_i64(1), name + "/one")},
              nullptr, {{"output_type", "i64"}});
}

// ONNX reduces every axis when the axes are missing or empty (unless
// noop_with_empty_axes, which makes it an Identity); OpenVINO's empty axes reduce none, so
// every axis is listed (and an axes input known to be empty is not read).
void write_reduce(NetWriter& w, const ir::Node& n) {
  const ir::Edge* axes_in = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  const ir::Attribute* axes_attr = n.attr("axes");
  auto empty = [](const ir::Edge* e) {
    if (e->data) return e->data->numel() == 0;
    const ir::Shape& s = e->type.shape;
    return s.rank_known && s.dims.size() == 1 && s.dims[0].is_known() && s.dims[0].value == 0;
  };
  bool all = axes_in ? empty(axes_in) : !axes_attr || axes_attr->ints.empty();
  std::optional<PortRef> axes;
  const std::string name = layer_name(n);
  if (all && int_attr_or(n, "noop_with_empty_axes", 0)) {
    // (What a "no-op" is for the composite reductions, the ONNX spec leaves open.)
    if (n.op_type == "ReduceSumSquare" || n.op_type == "ReduceLogSum" ||
        n.op_type == "ReduceLogSumExp")
      fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with noop_with_empty_axes");
    return write_identity(w, n);
  }
  if (all) {
    const ir::Type& t = n.inputs.at(0)->type;
    std::vector<int64_t> every;
    for (size_t i = 0; i < t.shape.dims.size(); ++i) every.push_back(static_cast<int64_t>(i));
    // Of a rank known only at run time: Range(0, rank, 1).
    axes = t.kind == ir::Type::Kind::Tensor && t.shape.rank_known
               ? w.const_i64(every, name + "/axes")
               : every_axis(w, w.source(n.inputs[0]), name);
  } else {
    axes = axes_of(w, n, 1, "axes");
  }
  bool keep = int_attr_or(n, "keepdims", 1) != 0;
  bool l1_l2 = n.op_type == "ReduceL1" || n.op_type == "ReduceL2";
  // ReduceSumSquare, ReduceLogSum and ReduceLogSumExp are a ReduceSum of x * x, x or exp(x),
  // the last two then a Log.
  PortRef x = w.source(n.inputs.at(0));
  std::string type = n.op_type;
  const bool logs = type == "ReduceLogSum" || type == "ReduceLogSumExp";
  if (type == "ReduceSumSquare")
    x = w.op("Multiply", "opset1", name + "/square", {x, x}, nullptr,
             {{"auto_broadcast", "numpy"}});
  if (type == "ReduceLogSumExp") x = w.op("Exp", "opset1", name + "/exp", {x}, nullptr);
  if (type == "ReduceSumSquare" || logs) type = "ReduceSum";
  PortRef sum = w.op(type, l1_l2 ? "opset4" : "opset1", logs ? name + "/sum" : name, {x, *axes},
                     logs ? nullptr : out0(w, n), {{"keep_dims", keep ? "true" : "false"}});
  if (logs) w.op("Log", "opset1", name, {sum}, out0(w, n));
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

// Before opset 13, ONNX's Softmax flattened the input at the axis; OpenVINO's never does.
void write_softmax(NetWriter& w, const ir::Node& n) {
  if (w.opset() < 13) fail(ErrorKind::Unsupported, w.where(n), n.op_type + " before opset 13");
  w.op(n.op_type, n.op_type == "Softmax" ? "opset8" : "opset5", layer_name(n), sources(w, n),
       out0(w, n), {{"axis", std::to_string(int_attr_or(n, "axis", -1))}});
}

void write_transpose(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* perm = n.attr("perm");
  PortRef order = w.const_i64(perm ? perm->ints : std::vector<int64_t>(), layer_name(n) + "/order");
  w.op("Transpose", "opset1", layer_name(n), {w.source(n.inputs.at(0)), order}, out0(w, n));
}

// ONNX Slice (opset 10+) is (data, starts, ends[, axes[, steps]]); Slice-8 is
// (data, start, stop, step[, axes]) with a step required: ones shaped like `starts`.
void write_slice(NetWriter& w, const ir::Node& n) {
  if (w.opset() < 10) fail(ErrorKind::Unsupported, w.where(n), "Slice before opset 10");
  std::string name = layer_name(n);
  auto input = [&](size_t k) { return n.inputs.size() > k ? n.inputs[k] : nullptr; };
  PortRef starts = w.source(input(1));
  PortRef step;
  if (input(4)) {
    step = w.source(input(4));
  } else {
    PortRef len =
        w.op("ShapeOf", "opset3", name + "/len", {starts}, nullptr, {{"output_type", "i64"}});
    step = w.op("Broadcast", "opset3", name + "/step", {w.const_i64({1}, name + "/one"), len},
                nullptr, {{"mode", "numpy"}});
  }
  std::vector<PortRef> ins{w.source(n.inputs.at(0)), starts, w.source(input(2)), step};
  if (input(3)) ins.push_back(w.source(input(3)));
  w.op("Slice", "opset8", name, ins, out0(w, n));
}

// Range-4 names its output type; with the type unknown, Range-1 takes it from its inputs,
// which ONNX requires to be alike anyway.
void write_range(NetWriter& w, const ir::Node& n) {
  const ir::Type& t = n.inputs.at(0)->type;
  std::string_view type =
      t.kind == ir::Type::Kind::Tensor ? ov_elem_name(t.elem) : std::string_view();
  if (type.empty()) {
    w.op("Range", "opset1", layer_name(n), sources(w, n), out0(w, n));
    return;
  }
  w.op("Range", "opset4", layer_name(n), sources(w, n), out0(w, n),
       {{"output_type", std::string(type)}});
}

// A scalar constant's value as a double (nullopt for a type other than the floats of 16 to
// 64 bits and the integers but uint64, or an int64 beyond 2^53, which a double would round).
std::optional<double> scalar_value(const Tensor& t) {
  if (t.numel() != 1) return std::nullopt;
  switch (t.type()) {
    case ElemType::Float:
      return t.data<float>()[0];
    case ElemType::Double:
      return t.data<double>()[0];
    case ElemType::Float16:
      return half_to_float(t.data<uint16_t>()[0]);
    case ElemType::BFloat16:
      return bfloat16_to_float(t.data<uint16_t>()[0]);
    case ElemType::Int8:
      return t.data<int8_t>()[0];
    case ElemType::UInt8:
      return t.data<uint8_t>()[0];
    case ElemType::Int16:
      return t.data<int16_t>()[0];
    case ElemType::UInt16:
      return t.data<uint16_t>()[0];
    case ElemType::Int32:
      return t.data<int32_t>()[0];
    case ElemType::UInt32:
      return t.data<uint32_t>()[0];
    case ElemType::Int64: {
      const int64_t v = t.data<int64_t>()[0];
      if (v > (int64_t{1} << 53) || v < -(int64_t{1} << 53)) return std::nullopt;
      return static_cast<double>(v);
    }
    default:
      return std::nullopt;
  }
}

// ONNX's Clip as Clamp-1, whose bounds are attributes: Clip's (inputs from opset 11,
// attributes before) when they are constants. A bound left out is infinite from opset 11
// and the float range before (Clip-6's defaults). Bounds known only at run time, or an
// integer x with a bound left out, make it Maximum and Minimum layers instead.
void write_clip(NetWriter& w, const ir::Node& n) {
  auto input = [&](size_t k) { return n.inputs.size() > k ? n.inputs[k] : nullptr; };
  auto known = [&](const ir::Edge* e) -> std::optional<double> {
    return e && e->data ? scalar_value(*e->data) : std::nullopt;
  };
  const std::string name = layer_name(n);
  const ir::Type& t = n.inputs.at(0)->type;
  const bool integer = t.kind == ir::Type::Kind::Tensor && is_integer_type(t.elem);
  if ((input(1) && !known(input(1))) || (input(2) && !known(input(2))) ||
      (integer && (!input(1) || !input(2)))) {
    PortRef x = w.source(n.inputs.at(0));
    if (!input(1) && !input(2)) return w.bind(out0(w, n), x);  // nothing to clip to
    const bool both = input(1) && input(2);
    if (input(1))
      x = w.op("Maximum", "opset1", both ? name + "/min" : name, {x, w.source(input(1))},
               both ? nullptr : out0(w, n), {{"auto_broadcast", "numpy"}});
    if (input(2))
      w.op("Minimum", "opset1", name, {x, w.source(input(2))}, out0(w, n),
           {{"auto_broadcast", "numpy"}});
    return;
  }
  auto bound = [&](size_t k, const char* attr, double fallback) {
    if (std::optional<double> v = known(input(k))) return *v;
    if (const ir::Attribute* a = n.attr(attr)) return static_cast<double>(a->f);
    return fallback;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const double limit = w.opset() < 11 ? std::numeric_limits<float>::max() : inf;
  auto text = [](double v) {
    char s[40];
    std::snprintf(s, sizeof s, "%.17g", v);
    return std::string(s);
  };
  w.op("Clamp", "opset1", name, {w.source(n.inputs[0])}, out0(w, n),
       {{"min", text(bound(1, "min", -limit))}, {"max", text(bound(2, "max", limit))}});
}

// TopK-11 with int64 indices, sorted by value and stable: ONNX's order (equal values lower
// index first). Its values and indices go to `values` and `indices` (either may be null);
// returns the indices' port.
PortRef top_k_layer(NetWriter& w, PortRef x, PortRef k, int64_t axis, bool largest, bool sorted,
                    const ir::Edge* values, const ir::Edge* indices, const std::string& name) {
  XmlLayer l;
  l.name = name;
  l.type = "TopK";
  l.version = "opset11";
  l.data = {{"axis", std::to_string(axis)},
            {"mode", largest ? "max" : "min"},
            {"sort", sorted ? "value" : "none"},
            {"stable", "true"},
            {"index_element_type", "i64"}};
  l.outputs = {NetWriter::port_of(values), NetWriter::port_of(indices)};
  const int64_t id = w.add(std::move(l), {x, k});
  if (values) w.bind(values, {id, 2});
  if (indices) w.bind(indices, {id, 3});
  return {id, 3};
}

// ONNX's TopK: K an attribute (opset 1) or an int64 [1] input, which TopK-11 wants scalar.
void write_top_k(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  PortRef k;
  if (n.inputs.size() > 1 && n.inputs[1])
    k = w.op("Squeeze", "opset1", name + "/k",
             {w.source(n.inputs[1]), w.const_i64({0}, name + "/k_axis")}, nullptr);
  else
    k = w.constant(Tensor::scalar_i64(int_attr_or(n, "k", 1)), name + "/k");
  top_k_layer(w, w.source(n.inputs.at(0)), k, int_attr_or(n, "axis", -1),
              int_attr_or(n, "largest", 1) != 0, int_attr_or(n, "sorted", 1) != 0,
              n.outputs.empty() ? nullptr : n.outputs[0],
              n.outputs.size() > 1 ? n.outputs[1] : nullptr, name);
}

// ArgMax and ArgMin: the index of TopK-11's one largest (smallest) element, stable so that
// the first of equal values wins, as select_last_index 0 asks; squeezed without keepdims.
void write_arg_reduce(NetWriter& w, const ir::Node& n) {
  if (int_attr_or(n, "select_last_index", 0) != 0)
    fail(ErrorKind::Unsupported, w.where(n), n.op_type + " with select_last_index");
  const std::string name = layer_name(n);
  const int64_t axis = int_attr_or(n, "axis", 0);
  const bool keep = int_attr_or(n, "keepdims", 1) != 0;
  PortRef index =
      top_k_layer(w, w.source(n.inputs.at(0)), w.constant(Tensor::scalar_i64(1), name + "/k"), axis,
                  n.op_type == "ArgMax", true, nullptr, keep ? out0(w, n) : nullptr,
                  keep ? name : name + "/top");
  if (!keep)
    w.op("Squeeze", "opset1", name, {index, w.const_i64({axis}, name + "/axis")}, out0(w, n));
}

// ONNX's Pad (opset 11+: pads, constant_value and axes as inputs; before, attributes) as
// Pad-12, which takes pads_begin and pads_end apart: halves of a constant pads, or of a
// Split at run time. wrap mode and axes have no OpenVINO form; edge and reflect need
// constant pads that are not negative (map_pad says why).
void write_pad(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const ir::Attribute* mode_attr = n.attr("mode");
  const std::string mode = mode_attr ? mode_attr->s : "constant";
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    fail(ErrorKind::Unsupported, w.where(n), "Pad in " + mode + " mode");
  if (n.inputs.size() > 3 && n.inputs[3]) fail(ErrorKind::Unsupported, w.where(n), "Pad with axes");
  const ir::Edge* pads_in = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  std::optional<std::vector<int64_t>> pads;
  if (const ir::Attribute* a = n.attr("pads")) pads = a->ints;  // Pad-2
  if (pads_in && pads_in->data && pads_in->data->type() == ElemType::Int64)
    pads = std::vector<int64_t>(pads_in->data->data<int64_t>(),
                                pads_in->data->data<int64_t>() + pads_in->data->numel());
  if (mode != "constant" &&
      (!pads || std::any_of(pads->begin(), pads->end(), [](int64_t v) { return v < 0; })))
    fail(ErrorKind::Unsupported, w.where(n),
         "Pad in " + mode + " mode needs constant pads that are not negative");
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  if (pads) {
    const auto half = static_cast<long>(pads->size() / 2);
    ins.push_back(w.const_i64({pads->begin(), pads->begin() + half}, name + "/pads_begin"));
    ins.push_back(w.const_i64({pads->begin() + half, pads->end()}, name + "/pads_end"));
  } else if (pads_in) {
    XmlLayer split;
    split.name = name + "/pads";
    split.type = "Split";
    split.version = "opset1";
    split.data = {{"num_splits", "2"}};
    split.outputs = {NetWriter::port_of(nullptr), NetWriter::port_of(nullptr)};
    const int64_t id =
        w.add(std::move(split),
              {w.source(pads_in), w.constant(Tensor::scalar_i64(0), name + "/pads_axis")});
    ins.push_back({id, 2});
    ins.push_back({id, 3});
  } else {
    fail(ErrorKind::InvalidModel, w.where(n), "Pad without pads");
  }
  if (mode == "constant") {
    if (n.inputs.size() > 2 && n.inputs[2])
      ins.push_back(w.source(n.inputs[2]));
    else if (const ir::Attribute* v = n.attr("value"); v && v->f != 0)  // Pad-2
      ins.push_back(
          w.op("ConvertLike", "opset1", name + "/value",
               {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{v->f}),
                           name + "/value_f32"),
                ins[0]},
               nullptr));
  }
  w.op("Pad", "opset12", name, ins, out0(w, n), {{"pad_mode", mode}});
}

// ONNX's Gemm, alpha * A' * B' + beta * C, as MatMul with the transposes as Transpose
// layers (a reader cannot tell a matrix from a scalar by a port without dims), the factors
// as constants converted like A, and an Add of C broadcast as numpy does.
void write_gemm(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  auto operand = [&](size_t k, const char* trans) {
    PortRef p = w.source(n.inputs.at(k));
    if (!int_attr_or(n, trans, 0)) return p;
    return w.op("Transpose", "opset1", name + "/" + trans,
                {p, w.const_i64({1, 0}, name + "/" + trans + "_order")}, nullptr);
  };
  auto factor = [&](PortRef x, const char* attr) {
    const ir::Attribute* a = n.attr(attr);
    if (!a || a->f == 1.0f) return x;
    PortRef f = w.op("ConvertLike", "opset1", name + "/" + attr,
                     {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{a->f}),
                                 name + "/" + attr + "_f32"),
                      x},
                     nullptr);
    return w.op("Multiply", "opset1", name + "/" + attr + "_times", {x, f}, nullptr,
                {{"auto_broadcast", "numpy"}});
  };
  const ir::Edge* c = n.inputs.size() > 2 ? n.inputs[2] : nullptr;
  const ir::Attribute* alpha = n.attr("alpha");
  const bool scaled = alpha && alpha->f != 1.0f;
  PortRef product =
      w.op("MatMul", "opset1", c || scaled ? name + "/matmul" : name,
           {operand(0, "transA"), operand(1, "transB")}, c || scaled ? nullptr : out0(w, n),
           {{"transpose_a", "false"}, {"transpose_b", "false"}});
  if (!c && !scaled) return;
  if (!c) {
    w.bind(out0(w, n), factor(product, "alpha"));
    return;
  }
  w.op("Add", "opset1", name, {factor(product, "alpha"), factor(w.source(c), "beta")}, out0(w, n),
       {{"auto_broadcast", "numpy"}});
}

void write_cum_sum(NetWriter& w, const ir::Node& n) {
  auto flag = [&](const char* key) { return int_attr_or(n, key, 0) ? "true" : "false"; };
  w.op("CumSum", "opset3", layer_name(n), sources(w, n), out0(w, n),
       {{"exclusive", flag("exclusive")}, {"reverse", flag("reverse")}});
}

void write_tile(NetWriter& w, const ir::Node& n) {
  w.op("Tile", "opset1", layer_name(n), sources(w, n), out0(w, n));
}

void write_expand(NetWriter& w, const ir::Node& n) {
  w.op("Broadcast", "opset3", layer_name(n), sources(w, n), out0(w, n),
       {{"mode", "bidirectional"}});
}

const std::map<std::string, WriteFn>& special() {
  static const std::map<std::string, WriteFn> m{{"Identity", write_identity},
                                                {"CastLike", write_cast_like},
                                                {"Size", write_size},
                                                {"Split", write_split},
                                                {"GatherElements", write_gather_elements},
                                                {"GatherND", write_gather_nd},
                                                {"ConstantOfShape", write_constant_of_shape},
                                                {"Reciprocal", write_reciprocal},
                                                {"Constant", write_constant},
                                                {"Cast", write_cast},
                                                {"Where", write_where},
                                                {"MatMul", write_matmul},
                                                {"Reshape", write_reshape},
                                                {"Squeeze", write_squeeze_like},
                                                {"Unsqueeze", write_squeeze_like},
                                                {"Concat", write_concat},
                                                {"Shape", write_shape},
                                                {"Gather", write_gather},
                                                {"ReduceSum", write_reduce},
                                                {"ReduceMean", write_reduce},
                                                {"ReduceMax", write_reduce},
                                                {"ReduceMin", write_reduce},
                                                {"ReduceProd", write_reduce},
                                                {"Softmax", write_softmax},
                                                {"LogSoftmax", write_softmax},
                                                {"Transpose", write_transpose},
                                                {"Slice", write_slice},
                                                {"Range", write_range},
                                                {"Expand", write_expand},
                                                {"CumSum", write_cum_sum},
                                                {"Clip", write_clip},
                                                {"TopK", write_top_k},
                                                {"Pad", write_pad},
                                                {"Gemm", write_gemm},
                                                {"Tile", write_tile},
                                                {"ReduceSumSquare", write_reduce},
                                                {"ReduceLogSum", write_reduce},
                                                {"ReduceLogSumExp", write_reduce},
                                                {"Sum", write_variadic},
                                                {"Mean", write_variadic},
                                                {"ArgMax", write_arg_reduce},
                                                {"ArgMin", write_arg_reduce},
                                                {"If", write_if},
                                                {"Loop", write_loop},
                                                {"Scan", write_scan},
                                                {"Mod", write_mod},
                                                {"ReduceL1", write_reduce},
                                                {"ReduceL2", write_reduce},
                                                {"Elu", write_elu},
                                                {"Conv", write_conv},
                                                {"MaxPool", write_pool},
                                                {"AveragePool", write_pool},
                                                {"IsInf", write_is_inf},
                                                {"Flatten", write_flatten},
                                                {"LSTM", write_recurrent},
                                                {"GRU", write_recurrent},
                                                {"RNN", write_recurrent}};
  return m;
}

}  // namespace

bool has_ir_form(const std::string& op_type) {
  return unary().count(op_type) || binary().count(op_type) || special().count(op_type);
}

void write_node(NetWriter& w, const ir::Node& n) {
  if (!n.domain.empty())
    fail(ErrorKind::Unsupported, w.where(n),
         "operators of domain '" + n.domain + "' have no OpenVINO form");
  if (unary().count(n.op_type)) return write_unary(w, n);
  if (binary().count(n.op_type)) return write_binary(w, n);
  auto it = special().find(n.op_type);
  if (it == special().end())
    fail(ErrorKind::Unsupported, w.where(n), "operator " + n.op_type + " has no OpenVINO mapping");
  it->second(w, n);
}

}  // namespace bough::openvino
