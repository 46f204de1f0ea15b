// Calling a template with the C++ type of an element type.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "bough/error.h"
#include "bough/tensor.h"

namespace bough::kernels {

template <typename T>
struct Tag {
  using type = T;
};

[[noreturn]] inline void unsupported_type(ElemType t, const char* what) {
  fail(ErrorKind::Unsupported, "",
       std::string(what) + " does not support element type " + std::string(elem_name(t)));
}

// fn(Tag<T>{}) for the byte-aligned integer types; Unsupported for any other type.
template <typename F>
decltype(auto) visit_integer(ElemType t, const char* what, F&& fn) {
  switch (t) {
    case ElemType::Int8:
      return fn(Tag<int8_t>{});
    case ElemType::Int16:
      return fn(Tag<int16_t>{});
    case ElemType::Int32:
      return fn(Tag<int32_t>{});
    case ElemType::Int64:
      return fn(Tag<int64_t>{});
    case ElemType::UInt8:
      return fn(Tag<uint8_t>{});
    case ElemType::UInt16:
      return fn(Tag<uint16_t>{});
    case ElemType::UInt32:
      return fn(Tag<uint32_t>{});
    case ElemType::UInt64:
      return fn(Tag<uint64_t>{});
    default:
      unsupported_type(t, what);
  }
}

// fn(Tag<T>{}) for the plain numeric types (no float16/bfloat16/narrow types, no bool).
template <typename F>
decltype(auto) visit_numeric(ElemType t, const char* what, F&& fn) {
  if (t == ElemType::Float) return fn(Tag<float>{});
  if (t == ElemType::Double) return fn(Tag<double>{});
  return visit_integer(t, what, std::forward<F>(fn));
}

// As visit_numeric, plus bool.
template <typename F>
decltype(auto) visit_numeric_bool(ElemType t, const char* what, F&& fn) {
  if (t == ElemType::Bool) return fn(Tag<bool>{});
  return visit_numeric(t, what, std::forward<F>(fn));
}

template <typename F>
decltype(auto) visit_float(ElemType t, const char* what, F&& fn) {
  switch (t) {
    case ElemType::Float:
      return fn(Tag<float>{});
    case ElemType::Double:
      return fn(Tag<double>{});
    default:
      unsupported_type(t, what);
  }
}

// The sets of element types above, for code that serves operators on either.
enum class Types { Float, Numeric, NumericBool };

// visit_float, visit_numeric or visit_numeric_bool, as K says.
template <Types K, typename F>
decltype(auto) visit(ElemType t, const char* what, F&& fn) {
  if constexpr (K == Types::Float)
    return visit_float(t, what, std::forward<F>(fn));
  else if constexpr (K == Types::Numeric)
    return visit_numeric(t, what, std::forward<F>(fn));
  else
    return visit_numeric_bool(t, what, std::forward<F>(fn));
}

// fn(Tag<T>{}) for any type by storage: byte-aligned types by their width, strings.
// For ops that only move elements (Gather, Concat, Transpose, ...).
struct Bytes1 {
  uint8_t v;
};
struct Bytes2 {
  uint16_t v;
};
struct Bytes4 {
  uint32_t v;
};
struct Bytes8 {
  uint64_t v;
};
struct Bytes16 {
  uint64_t v[2];
};
template <typename F>
decltype(auto) visit_storage(ElemType t, const char* what, F&& fn) {
  if (t == ElemType::String) return fn(Tag<std::string>{});
  switch (elem_bits(t)) {
    case 8:
      return fn(Tag<Bytes1>{});
    case 16:
      return fn(Tag<Bytes2>{});
    case 32:
      return fn(Tag<Bytes4>{});
    case 64:
      return fn(Tag<Bytes8>{});
    case 128:
      return fn(Tag<Bytes16>{});
    default:
      unsupported_type(t, what);
  }
}

// Element pointer for visit_storage types (strings live apart from bytes).
template <typename T>
T* elements(Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>)
    return t.strings();
  else
    return t.data<T>();
}
template <typename T>
const T* elements(const Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>)
    return t.strings();
  else
    return t.data<T>();
}

}  // namespace bough::kernels
