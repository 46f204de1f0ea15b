#include "formats/openvino/element_types.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace bough::openvino {

namespace {

// element_type spelling; the port precision is the same in upper case except where the
// second table says otherwise.
constexpr std::array<std::pair<std::string_view, ElemType>, 20> kNames{{
    {"boolean", ElemType::Bool},
    {"bf16", ElemType::BFloat16},
    {"f16", ElemType::Float16},
    {"f32", ElemType::Float},
    {"f64", ElemType::Double},
    {"i4", ElemType::Int4},
    {"i8", ElemType::Int8},
    {"i16", ElemType::Int16},
    {"i32", ElemType::Int32},
    {"i64", ElemType::Int64},
    {"u2", ElemType::UInt2},
    {"u4", ElemType::UInt4},
    {"u8", ElemType::UInt8},
    {"u16", ElemType::UInt16},
    {"u32", ElemType::UInt32},
    {"u64", ElemType::UInt64},
    {"f8e4m3", ElemType::Float8E4M3FN},
    {"f8e5m2", ElemType::Float8E5M2},
    {"f4e2m1", ElemType::Float4E2M1},
    {"f8e8m0", ElemType::Float8E8M0},
}};

constexpr std::array<std::pair<std::string_view, ElemType>, 5> kPrecisions{{
    {"BOOL", ElemType::Bool},
    {"FP16", ElemType::Float16},
    {"FP32", ElemType::Float},
    {"FP64", ElemType::Double},
    {"STRING", ElemType::String},
}};

}  // namespace

std::optional<ElemType> elem_from_ov(std::string_view name) {
  if (name == "string") return ElemType::String;
  if (name == "u1" || name == "U1" || name == "BIN") return ElemType::UInt8;
  for (const auto& [ov, t] : kPrecisions)
    if (name == ov) return t;
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [ov, t] : kNames)
    if (lower == ov) return t;
  return std::nullopt;
}

bool is_dynamic_elem(std::string_view name) {
  return name == "dynamic" || name == "undefined" || name == "UNSPECIFIED" || name == "DYNAMIC" ||
         name == "UNDEFINED";
}

int ov_sub_byte_bits(std::string_view name) {
  if (name == "u1") return 1;
  if (name == "u2") return 2;
  if (name == "u4" || name == "i4" || name == "f4e2m1") return 4;
  return 0;
}

std::string unpack_ov_bits(std::string_view packed, int64_t count, int bits) {
  const int per_byte = 8 / bits;
  const unsigned mask = (1u << bits) - 1u;
  auto value = [&](int64_t i) {
    auto byte = static_cast<unsigned char>(packed[static_cast<size_t>(i / per_byte)]);
    int shift = 8 - bits * static_cast<int>(i % per_byte + 1);
    return static_cast<unsigned char>((byte >> shift) & mask);
  };
  if (bits == 1) {
    std::string out(static_cast<size_t>(count), '\0');
    for (int64_t i = 0; i < count; ++i) out[static_cast<size_t>(i)] = static_cast<char>(value(i));
    return out;
  }
  // ONNX's 2-bit packing: element i at bits 2 * (i % 4) of byte i / 4.
  std::string out(static_cast<size_t>((count + 3) / 4), '\0');
  for (int64_t i = 0; i < count; ++i)
    out[static_cast<size_t>(i / 4)] = static_cast<char>(
        static_cast<unsigned char>(out[static_cast<size_t>(i / 4)]) | (value(i) << (2 * (i % 4))));
  return out;
}

std::string pack_ov_u2(std::string_view onnx_packed, int64_t count) {
  std::string out(static_cast<size_t>((count + 3) / 4), '\0');
  for (int64_t i = 0; i < count; ++i) {
    auto byte = static_cast<unsigned char>(onnx_packed[static_cast<size_t>(i / 4)]);
    unsigned v = (byte >> (2 * (i % 4))) & 3u;
    out[static_cast<size_t>(i / 4)] = static_cast<char>(
        static_cast<unsigned char>(out[static_cast<size_t>(i / 4)]) | (v << (6 - 2 * (i % 4))));
  }
  return out;
}

std::string pack_ov_u1(std::string_view values) {
  std::string out((values.size() + 7) / 8, '\0');
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] != 0) out[i / 8] = static_cast<char>(out[i / 8] | (0x80 >> (i % 8)));
  return out;
}

std::string_view ov_elem_name(ElemType t) {
  if (t == ElemType::String) return "string";
  for (const auto& [ov, e] : kNames)
    if (e == t) return ov;
  return {};
}

}  // namespace bough::openvino
