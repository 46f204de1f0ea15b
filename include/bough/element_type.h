/// @file
/// Element types: every ONNX TensorProto.DataType, with the same numeric codes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bough/export.h"

namespace bough {

/// A tensor's element type; the values are ONNX's TensorProto.DataType codes.
enum class ElemType : uint8_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  BFloat16 = 16,
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26,
};

/// The highest code in ElemType.
inline constexpr int kLastElemType = 26;

/// Bits per element (1 byte per bool; 4 for int4/uint4/float4e2m1; 2 for int2/uint2).
/// String reports 0: strings are stored as std::string objects, not packed bytes.
inline int elem_bits(ElemType t) {
  // Indexed by the ONNX code. Static, or GCC builds the table on the stack on every call.
  static constexpr uint8_t kBits[kLastElemType + 1] = {
      0, 32, 8, 8, 16, 16, 32, 64, 0, 8, 16, 64, 32, 64, 64, 128, 16, 8, 8, 8, 8, 4, 4, 4, 8, 2, 2};
  auto code = static_cast<unsigned>(t);
  return code <= kLastElemType ? kBits[code] : 0;
}
/// The ONNX spelling used in type strings: "float", "int64", "float8e4m3fn", ...
BOUGH_API std::string_view elem_name(ElemType t);
/// Parses elem_name() back; returns false for an unknown name.
BOUGH_API bool parse_elem_name(std::string_view name, ElemType* out);
/// True for codes 1..26.
BOUGH_API bool is_valid_elem_code(int code);

/// Bytes needed to store `count` elements (sub-byte types packed, low bits first).
inline size_t elem_storage_bytes(ElemType t, size_t count) {
  int bits = elem_bits(t);
  return (count * static_cast<size_t>(bits) + 7) / 8;
}

BOUGH_API bool is_float_type(ElemType t);    ///< float, double, float16, bfloat16, float8*, float4
BOUGH_API bool is_integer_type(ElemType t);  ///< signed/unsigned ints incl. 4- and 2-bit
BOUGH_API bool is_signed_integer(ElemType t);  ///< int8 .. int64, int4, int2
BOUGH_API bool is_sub_byte(ElemType t);        ///< int4, uint4, float4e2m1, int2, uint2

}  // namespace bough
