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
  for (const auto& [ov, t] : kPrecisions)
    if (name == ov) return t;
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [ov, t] : kNames)
    if (lower == ov) return t;
  return std::nullopt;
}

std::string_view ov_elem_name(ElemType t) {
  if (t == ElemType::String) return "string";
  for (const auto& [ov, e] : kNames)
    if (e == t) return ov;
  return {};
}

}  // namespace bough::openvino
