#include "formats/openvino/map_helpers.h"

#include <cstdlib>

#include "bough/error.h"
#include "ir/float_formats.h"

namespace bough::openvino {

bool flag(const XmlLayer& l, const char* key, bool fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  return *v == "true" || *v == "1" || *v == "True";
}

std::string enum_data(const XmlLayer& l, const char* key, const std::string& fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  std::string lower = *v;
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

int64_t int_data(GraphLowering& g, const XmlLayer& l, const char* key, int64_t fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  char* end = nullptr;
  long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0')
    fail(ErrorKind::InvalidModel, g.where(l),
         std::string(key) + "=\"" + *v + "\" is not an integer");
  return x;
}

double float_data(GraphLowering& g, const XmlLayer& l, const char* key, double fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  char* end = nullptr;
  double x = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0')
    fail(ErrorKind::InvalidModel, g.where(l), std::string(key) + "=\"" + *v + "\" is not a number");
  return x;
}

namespace {

// The comma-separated items of attribute `key` ("" is none), each read by `parse`, which
// returns whether all of the item was a number.
template <typename T, typename Parse>
std::vector<T> list_data(GraphLowering& g, const XmlLayer& l, const char* key, const char* what,
                         Parse parse) {
  std::vector<T> out;
  const std::string* v = l.attr(key);
  if (!v) return out;
  size_t pos = 0;
  while (pos < v->size()) {
    const size_t comma = v->find(',', pos);
    const std::string item =
        v->substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    T x{};
    if (!parse(item, &x))
      fail(ErrorKind::InvalidModel, g.where(l),
           std::string(key) + "=\"" + *v + "\" is not a list of " + what);
    out.push_back(x);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

// Whether `end` is past the number: the end of `item`, or blanks up to it.
bool at_end(const char* end) {
  while (*end == ' ' || *end == '\t') ++end;
  return *end == '\0';
}

}  // namespace

std::vector<int64_t> int_list(GraphLowering& g, const XmlLayer& l, const char* key) {
  return list_data<int64_t>(g, l, key, "integers", [](const std::string& item, int64_t* x) {
    char* end = nullptr;
    *x = std::strtoll(item.c_str(), &end, 10);
    return !item.empty() && end != item.c_str() && at_end(end);
  });
}

std::vector<float> float_list(GraphLowering& g, const XmlLayer& l, const char* key) {
  return list_data<float>(g, l, key, "numbers", [](const std::string& item, float* x) {
    char* end = nullptr;
    *x = static_cast<float>(std::strtod(item.c_str(), &end));
    return !item.empty() && end != item.c_str() && at_end(end);
  });
}

std::vector<int64_t> const_ints(GraphLowering& g, const LayerIO& io, size_t input,
                                const char* what) {
  const Tensor* t = GraphLowering::constant_value(io.in.at(input));
  if (!t || (t->type() != ElemType::Int64 && t->type() != ElemType::Int32))
    fail(ErrorKind::Unsupported, g.where(io.layer),
         std::string(what) + " must be an int32/int64 constant to map to ONNX");
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t->numel(); ++i)
    v.push_back(t->type() == ElemType::Int64 ? t->data<int64_t>()[i] : t->data<int32_t>()[i]);
  return v;
}

int64_t const_axis(GraphLowering& g, const LayerIO& io, size_t input) {
  const std::vector<int64_t> axis = const_ints(g, io, input, "the axis input");
  if (axis.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "the axis input holds one value");
  return axis[0];
}

std::vector<double> const_floats(GraphLowering& g, const LayerIO& io, size_t input,
                                 const char* what) {
  const Tensor* t = GraphLowering::constant_value(io.in.at(input));
  if (!t || !(is_float_type(t->type()) || is_integer_type(t->type())))
    fail(ErrorKind::Unsupported, g.where(io.layer),
         std::string(what) + " must be a numeric constant to map to ONNX");
  std::vector<double> v;
  for (int64_t i = 0; i < t->numel(); ++i) v.push_back(t->get_double(i));
  return v;
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

Tensor i64_tensor(const std::vector<int64_t>& v) {
  return Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(v.size())}, v);
}

void check_inputs(GraphLowering& g, const LayerIO& io, size_t lo, size_t hi) {
  if (io.in.size() < lo || io.in.size() > hi || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer),
         "expected " + std::to_string(lo) + (lo == hi ? "" : " to " + std::to_string(hi)) +
             " inputs and one output, got " + std::to_string(io.in.size()) + " and " +
             std::to_string(io.out.size()));
}

}  // namespace bough::openvino
