#include "bough/element_type.h"

#include <array>

namespace bough {
namespace {

struct ElemInfo {
  std::string_view name;
  int bits;
};

// Indexed by the ONNX DataType code.
constexpr std::array<ElemInfo, kLastElemType + 1> kInfo = {{
    {"undefined", 0},     {"float", 32},          {"uint8", 8},          {"int8", 8},
    {"uint16", 16},       {"int16", 16},          {"int32", 32},         {"int64", 64},
    {"string", 0},        {"bool", 8},            {"float16", 16},       {"double", 64},
    {"uint32", 32},       {"uint64", 64},         {"complex64", 64},     {"complex128", 128},
    {"bfloat16", 16},     {"float8e4m3fn", 8},    {"float8e4m3fnuz", 8}, {"float8e5m2", 8},
    {"float8e5m2fnuz", 8}, {"uint4", 4},          {"int4", 4},           {"float4e2m1", 4},
    {"float8e8m0", 8},    {"uint2", 2},           {"int2", 2},
}};

}  // namespace

int elem_bits(ElemType t) { return kInfo[static_cast<int>(t)].bits; }

std::string_view elem_name(ElemType t) {
  auto code = static_cast<int>(t);
  return code <= kLastElemType ? kInfo[code].name : "invalid";
}

bool parse_elem_name(std::string_view name, ElemType* out) {
  for (int code = 1; code <= kLastElemType; ++code) {
    if (kInfo[code].name == name) {
      *out = static_cast<ElemType>(code);
      return true;
    }
  }
  return false;
}

bool is_valid_elem_code(int code) { return code >= 1 && code <= kLastElemType; }

bool is_float_type(ElemType t) {
  switch (t) {
    case ElemType::Float:
    case ElemType::Double:
    case ElemType::Float16:
    case ElemType::BFloat16:
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
    case ElemType::Float8E8M0:
    case ElemType::Float4E2M1:
      return true;
    default:
      return false;
  }
}

bool is_signed_integer(ElemType t) {
  switch (t) {
    case ElemType::Int8:
    case ElemType::Int16:
    case ElemType::Int32:
    case ElemType::Int64:
    case ElemType::Int4:
    case ElemType::Int2:
      return true;
    default:
      return false;
  }
}

bool is_integer_type(ElemType t) {
  switch (t) {
    case ElemType::UInt8:
    case ElemType::UInt16:
    case ElemType::UInt32:
    case ElemType::UInt64:
    case ElemType::UInt4:
    case ElemType::UInt2:
      return true;
    default:
      return is_signed_integer(t);
  }
}

bool is_sub_byte(ElemType t) { return elem_bits(t) > 0 && elem_bits(t) < 8; }

}  // namespace bough
