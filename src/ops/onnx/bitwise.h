// Bitwise operators (BitwiseAnd/Or/Xor/Not, BitShift): integer element types only.
#pragma once

#include "ops/elementwise.h"

namespace bough::ops {

// fn(Tag<T>{}) for the byte-aligned integer types; Unsupported for any other type.
template <typename F>
decltype(auto) visit_integer(ElemType t, const char* what, F&& fn) {
  using kernels::Tag;
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
      kernels::unsupported_type(t, what);
  }
}

// Binary bitwise operator with multidirectional broadcasting; Fn is called per element pair.
template <typename Fn>
Tensor bitwise_binary(const Tensor& a, const Tensor& b, util::ThreadPool& pool, const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  return visit_integer(a.type(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::binary_map<T, T, T>(a, b, a.type(), pool,
                                        [](T x, T y) { return static_cast<T>(Fn{}(x, y)); });
  });
}

}  // namespace bough::ops
