#include "serve/tensor_data.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/float_formats.h"
#include "serve/datatype.h"
#include "serve/protocol_error.h"

namespace bough::serve {

static_assert(std::endian::native == std::endian::little,
              "binary tensor data is little-endian, as bough's tensors are here");

using nlohmann::json;

namespace {

constexpr int64_t kMaxElements = int64_t{1} << 40;

// Calls `visit(leaf)` for every non-array value under `data`, in row-major order, without
// recursion (a deeply nested array costs no stack).
template <typename Visit>
void for_each_leaf(const json& data, Visit&& visit) {
  if (!data.is_array()) return visit(data);
  std::vector<std::pair<const json*, size_t>> stack{{&data, 0}};
  while (!stack.empty()) {
    auto& [array, next] = stack.back();
    if (next == array->size()) {
      stack.pop_back();
      continue;
    }
    const json& item = (*array)[next++];
    if (item.is_array())
      stack.emplace_back(&item, 0);
    else
      visit(item);
  }
}

[[noreturn]] void wrong_value(const std::string& what, ElemType type, const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  bad_request("input '" + what + "': " + text + " is not a value of datatype " +
              datatype_name(type));
}

template <typename T>
T integer_value(const json& v, ElemType type, const std::string& what) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    if (std::in_range<T>(i)) return static_cast<T>(i);
  }
  wrong_value(what, type, v);
}

double float_value(const json& v, ElemType type, const std::string& what) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  wrong_value(what, type, v);
}

// `d` rounded to the nearest float, as IEEE conversion does: past the largest float by half
// an ulp or more it is infinite (static_cast would be undefined behaviour out of range).
float to_float(double d) {
  constexpr double kMax = std::numeric_limits<float>::max();
  constexpr double kOverflow = kMax + 0x1p103;  // FLT_MAX plus half its ulp (2^104)
  if (std::fabs(d) <= kMax || std::isnan(d)) return static_cast<float>(d);
  const float sign = d < 0 ? -1.0f : 1.0f;
  return std::fabs(d) < kOverflow ? sign * std::numeric_limits<float>::max()
                                  : sign * std::numeric_limits<float>::infinity();
}

// Calls `store(i, leaf)` for each leaf (the caller checked their count).
template <typename Store>
void read_leaves(const json& data, Store&& store) {
  int64_t i = 0;
  for_each_leaf(data, [&](const json& leaf) { store(i++, leaf); });
}

// A value of number type T (its element type `type`): whole and in range for an integer type,
// rounded to nearest for float.
template <typename T>
T number_value(const json& v, ElemType type, const std::string& what) {
  if constexpr (std::is_integral_v<T>)
    return integer_value<T>(v, type, what);
  else if constexpr (std::is_same_v<T, float>)
    return to_float(float_value(v, type, what));
  else
    return float_value(v, type, what);
}

template <typename T>
void append_number(std::string& out, T value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(value)) return out.append("NaN"), void();
    if (std::isinf(value)) return out.append(value > 0 ? "Infinity" : "-Infinity"), void();
  }
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
}

template <typename T, typename Convert>
void append_numbers(std::string& out, const Tensor& t, Convert convert) {
  const T* data = t.data<T>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (i) out.push_back(',');
    append_number(out, convert(data[i]));
  }
}

uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

int64_t element_count(std::span<const int64_t> shape, const std::string& what) {
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) bad_request(what + ": its shape has a dimension below 0 or past 2^63");
    if (d != 0 && count > kMaxElements / d)
      bad_request(what + ": its shape holds more than 2^40 elements");
    count *= d;
  }
  return count;
}

Tensor tensor_from_json(const json& data, ElemType type, const Dims& shape,
                        const std::string& what) {
  int64_t leaves = 0;
  for_each_leaf(data, [&](const json&) { ++leaves; });
  if (leaves != shape.numel())
    bad_request("input '" + what + "': " + std::to_string(leaves) +
                " data elements, its shape has " + std::to_string(shape.numel()));
  Tensor t(type, shape);
  const bool number = visit_number(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data<T>();
    read_leaves(data, [&](int64_t i, const json& v) { out[i] = number_value<T>(v, type, what); });
  });
  if (number) return t;
  switch (type) {
    case ElemType::Bool: {
      uint8_t* out = t.data<uint8_t>();
      read_leaves(data, [&](int64_t i, const json& v) {
        if (!v.is_boolean()) wrong_value(what, type, v);
        out[i] = v.get<bool>() ? 1 : 0;
      });
      break;
    }
    case ElemType::Float16:
    case ElemType::BFloat16: {
      uint16_t* out = t.data<uint16_t>();
      const bool half = type == ElemType::Float16;
      read_leaves(data, [&](int64_t i, const json& v) {
        const float f = to_float(float_value(v, type, what));
        out[i] = half ? float_to_half(f) : float_to_bfloat16(f);
      });
      break;
    }
    case ElemType::String: {
      std::string* out = t.strings();
      read_leaves(data, [&](int64_t i, const json& v) {
        if (!v.is_string()) wrong_value(what, type, v);
        out[i] = v.get<std::string>();
      });
      break;
    }
    default:
      bad_request("input '" + what + "': datatype " + datatype_name(type) +
                  " cannot be sent through the protocol");
  }
  return t;
}

Tensor tensor_from_binary(std::string_view bytes, ElemType type, const Dims& shape,
                          const std::string& what) {
  if (!parse_datatype(datatype_name(type)))
    bad_request("input '" + what + "': datatype " + datatype_name(type) +
                " cannot be sent through the protocol");
  const size_t count = static_cast<size_t>(shape.numel());
  if (type != ElemType::String) {
    const size_t expected = elem_storage_bytes(type, count);
    if (bytes.size() != expected)
      bad_request("input '" + what + "': " + std::to_string(bytes.size()) +
                  " bytes of binary data, its shape and datatype take " + std::to_string(expected));
    if (type == ElemType::Bool &&
        std::any_of(bytes.begin(), bytes.end(), [](char c) { return c != 0 && c != 1; }))
      bad_request("input '" + what + "': BOOL binary data holds a byte other than 0 and 1");
    Tensor t(type, shape);
    if (!bytes.empty()) std::memcpy(t.raw(), bytes.data(), bytes.size());
    return t;
  }
  // Each element takes at least its 4-byte length: refuse a count the bytes cannot hold
  // before allocating for it.
  if (count > bytes.size() / 4)
    bad_request("input '" + what + "': " + std::to_string(bytes.size()) +
                " bytes of binary data cannot hold " + std::to_string(count) + " BYTES elements");
  Tensor t(type, shape);
  size_t at = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (bytes.size() - at < 4 || bytes.size() - at - 4 < read_u32(bytes.data() + at))
      bad_request("input '" + what + "': its BYTES binary data ends inside element " +
                  std::to_string(i));
    const uint32_t length = read_u32(bytes.data() + at);
    t.strings()[i].assign(bytes.data() + at + 4, length);
    at += 4 + length;
  }
  if (at != bytes.size())
    bad_request("input '" + what + "': " + std::to_string(bytes.size() - at) +
                " bytes of binary data after its " + std::to_string(t.numel()) + " elements");
  return t;
}

void append_json_data(std::string& out, const Tensor& t) {
  out.push_back('[');
  // Unary plus writes the 8-bit integers as numbers, not characters.
  const bool number = visit_number(t.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    append_numbers<T>(out, t, [](T v) { return +v; });
  });
  if (number) return out.push_back(']');
  switch (t.type()) {
    case ElemType::Bool: {
      const uint8_t* data = t.data<uint8_t>();
      for (int64_t i = 0; i < t.numel(); ++i)
        out.append(i ? "," : "").append(data[i] ? "true" : "false");
      break;
    }
    case ElemType::Float16:
      append_numbers<uint16_t>(out, t, half_to_float);
      break;
    case ElemType::BFloat16:
      append_numbers<uint16_t>(out, t, bfloat16_to_float);
      break;
    case ElemType::String:
      for (int64_t i = 0; i < t.numel(); ++i) {
        if (i) out.push_back(',');
        out += json(t.strings()[i]).dump(-1, ' ', false, json::error_handler_t::replace);
      }
      break;
    default:
      throw ProtocolError(kBadRequest, "datatype " + datatype_name(t.type()) +
                                           " cannot be sent through the protocol");
  }
  out.push_back(']');
}

size_t append_binary_data(std::string& out, const Tensor& t) {
  if (!parse_datatype(datatype_name(t.type())))
    throw ProtocolError(kBadRequest, "datatype " + datatype_name(t.type()) +
                                         " cannot be sent through the protocol");
  const size_t start = out.size();
  if (t.type() != ElemType::String) {
    out.append(static_cast<const char*>(t.raw()), t.nbytes());
    return t.nbytes();
  }
  for (int64_t i = 0; i < t.numel(); ++i) {
    const std::string& s = t.strings()[i];
    if (s.size() > std::numeric_limits<uint32_t>::max())
      throw ProtocolError(kInternalError, "a BYTES element is longer than 4 GiB");
    const uint32_t length = static_cast<uint32_t>(s.size());
    out.append(reinterpret_cast<const char*>(&length), 4).append(s);
  }
  return out.size() - start;
}

}  // namespace bough::serve
