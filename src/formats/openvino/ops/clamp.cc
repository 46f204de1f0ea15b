// Clamp-1 and ONNX's Clip, both ways. Clamp's bounds are float attributes; Clip's are
// inputs (opset 11 on) or attributes (before) of x's type.
#include <algorithm>
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

// Clamp-1's bounds are float attributes; ONNX's Clip takes them as inputs of x's type, made
// here as constants of it. OpenVINO refuses min > max, and so a NaN bound (Clamp's
// validation checks min <= max). For an integer x its reference rounds min up and max down
// and saturates them to the type's range (as integer_range gives it), so a bound past the
// range clamps nothing.
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
  if (!(lo <= hi))
    fail(ErrorKind::InvalidModel, g.where(l),
         "Clamp's min must not be greater than its max (nor either NaN): min=" + *l.attr("min") +
             " max=" + *l.attr("max"));
  if (is_integer_type(t.elem)) {
    auto range = integer_range(t.elem);
    if (!range)
      fail(ErrorKind::Unsupported, g.where(l), "Clamp of " + std::string(elem_name(t.elem)));
    lo = std::min(std::max(std::ceil(lo), range->first), range->second);
    hi = std::max(std::min(std::floor(hi), range->second), range->first);
    if (lo > hi)
      fail(ErrorKind::Unsupported, g.where(l),
           "Clamp of an integer type with no integer between min and max");
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
