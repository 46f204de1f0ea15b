#include "bough/element_type.h"

#include <array>

namespace bough {
namespace {

// Indexed by the ONNX DataType code.
constexpr std::array<std::string_view, kLastElemType + 1> kNames = {
    "undefined",      "float",      "uint8",          "int8",       "uint16",   "int16",
    "int32",          "int64",      "string",         "bool",       "float16",  "double",
    "uint32",         "uint64",     "complex64",      "complex128", "bfloat16", "float8e4m3fn",
    "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",      "int4",     "float4e2m1",
    "float8e8m0",     "uint2",      "int2",
};

}  // namespace

std::string_view elem_name(ElemType t) {
  auto code = static_cast<int>(t);
  return code <= kLastElemType ? kNames[code] : "invalid";
}

bool parse_elem_name(std::string_view name, ElemType* out) {
  for (int code = 1; code <= kLastElemType; ++code) {
    if (kNames[code] == name) {
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
