// Clamp-1 and ONNX's Clip, both ways. Clamp's bounds are float attributes; Clip's are
// inputs (opset 11 on) or attributes (before) of x's type.
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"
#include "ir/float_formats.h"

namespace bough::openvino {

namespace {

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

}  // namespace

OpFamily clamp_family() {
  return {{{"Clamp", "1", map_clamp}}, {{"Clip", "Clamp-1 Maximum-1 Minimum-1", write_clip}}};
}

}  // namespace bough::openvino
