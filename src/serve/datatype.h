// The Open Inference Protocol's tensor datatypes ("FP32", "INT64", "BOOL", "BYTES", ...) and
// bough's element types: the protocol's table (KServe predict-api v2, "Tensor Data Types"),
// plus Triton's BF16.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bough/element_type.h"

namespace bough::serve {

// The protocol's name of `type`; for a type the protocol has no name for (float8, int4, ...),
// bough's own name in capitals, which no request can send.
std::string datatype_name(ElemType type);
// The element type a protocol name stands for; nothing for a name outside the protocol.
std::optional<ElemType> parse_datatype(std::string_view name);

template <typename T>
struct TypeTag {
  using type = T;
};

// fn(TypeTag<T>{}) and true when `type` is a number datatype stored as its C++ type T (INT8 to
// UINT64, FP32, FP64); false, without calling fn, for any other (BOOL, BYTES, FP16, BF16, and
// types outside the protocol).
template <typename F>
bool visit_number(ElemType type, F&& fn) {
  switch (type) {
    case ElemType::Int8:
      return fn(TypeTag<int8_t>{}), true;
    case ElemType::Int16:
      return fn(TypeTag<int16_t>{}), true;
    case ElemType::Int32:
      return fn(TypeTag<int32_t>{}), true;
    case ElemType::Int64:
      return fn(TypeTag<int64_t>{}), true;
    case ElemType::UInt8:
      return fn(TypeTag<uint8_t>{}), true;
    case ElemType::UInt16:
      return fn(TypeTag<uint16_t>{}), true;
    case ElemType::UInt32:
      return fn(TypeTag<uint32_t>{}), true;
    case ElemType::UInt64:
      return fn(TypeTag<uint64_t>{}), true;
    case ElemType::Float:
      return fn(TypeTag<float>{}), true;
    case ElemType::Double:
      return fn(TypeTag<double>{}), true;
    default:
      return false;
  }
}

}  // namespace bough::serve
