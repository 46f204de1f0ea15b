// Bitwise operators (BitwiseAnd/Or/Xor/Not, BitShift): integer element types only.
#pragma once

#include "ops/elementwise_defs.h"

namespace bough::ops {

// Binary bitwise operator with multidirectional broadcasting; Fn is called per element pair.
template <typename Fn>
Tensor bitwise_binary(const Tensor& a, const Tensor& b, util::ThreadPool& pool, const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  return kernels::visit_integer(a.type(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::binary_map<T, T, T>(a, b, a.type(), pool,
                                        [](T x, T y) { return static_cast<T>(Fn{}(x, y)); });
  });
}

// BitwiseAnd, BitwiseOr, BitwiseXor: C = Fn(A, B) on integers.
inline constexpr SignatureText kBitwiseRows[] = {{18, "A: T, B: T -> C: T; T = ints uints"}};
template <typename Fn>
Tensor bitwise_op(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  return bitwise_binary<Fn>(a, b, pool, Fn::kName);
}
template <typename Fn>
OpDef bitwise_def() {
  return def_from_rows("", Fn::kName, make_binary<bitwise_op<Fn>>, infer_broadcast, kBitwiseRows);
}

}  // namespace bough::ops
