// The OpDefs of the elementwise families of ai.onnx, whose members differ only in the
// function they apply: the unary float maps (Acos, Exp, Sqrt, ...), the comparisons and the
// logical operators. An operator file supplies Fn (its kName and a call operator) and the
// schema rows; the rows several members share are here. A row's `since` is an OpDef version.
#pragma once

#include <span>

#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

// The unary float maps: y = Fn(x) on the float types (float_unary: Fn may name kFast and
// kWork). Opset 6 dropped consumed_inputs; bfloat16 came with opset 13 for the oldest maps,
// with 22 for the trigonometric (opset 7) and hyperbolic (opset 9) ones.
inline constexpr SignatureText kMapRowsSince1[] = {
    {1, "input: T -> output: T; T = floats; consumed_inputs: ints?"},
    {6, "input: T -> output: T; T = floats"},
    {13, "input: T -> output: T; T = floats bfloat16"}};
inline constexpr SignatureText kMapRowsSince1XY[] = {
    {1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
    {6, "X: T -> Y: T; T = floats"},
    {13, "X: T -> Y: T; T = floats bfloat16"}};
// The maps that came later (the trigonometric ones in 7, the hyperbolic ones in 9, Softsign,
// Softplus, Round, HardSwish, Mish): floats from `Since`, bfloat16 from 22; their formals
// named input and output, or X and Y.
template <int Since>
inline constexpr SignatureText kLaterMapRows[] = {
    {Since, "input: T -> output: T; T = floats"},
    {22, "input: T -> output: T; T = floats bfloat16"}};
template <int Since>
inline constexpr SignatureText kLaterMapRowsXY[] = {{Since, "X: T -> Y: T; T = floats"},
                                                    {22, "X: T -> Y: T; T = floats bfloat16"}};

template <typename Fn>
void float_map_op(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<Fn>(x, out, pool, Fn::kName);
}
template <typename Fn>
OpDef float_map_def(std::span<const SignatureText> rows) {
  return def_from_rows("", Fn::kName, make_unary<float_map_op<Fn>>, infer_same_as_first, rows);
}

// The comparisons: a bool C = Fn(A, B) with multidirectional broadcasting (legacy
// broadcast/axis before opset 7). Greater and Less came in opset 1, their OrEqual forms in 12.
inline constexpr SignatureText kCompareRowsSince1[] = {
    {1, "A: T, B: T -> C: T1; T = floats, T1 = bool; axis: int?, broadcast: int = 0"},
    {7, "A: T, B: T -> C: T1; T = floats, T1 = bool"},
    {9, "A: T, B: T -> C: T1; T = numeric, T1 = bool"},
    {13, "A: T, B: T -> C: T1; T = numeric bfloat16, T1 = bool"}};
inline constexpr SignatureText kCompareRowsSince12[] = {
    {12, "A: T, B: T -> C: T1; T = numeric, T1 = bool"},
    {16, "A: T, B: T -> C: T1; T = numeric bfloat16, T1 = bool"}};

template <typename Fn>
void compare_op(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<Fn>(a, b, out, pool, Fn::kName);
}
template <typename Fn>
OpDef compare_def(std::span<const SignatureText> rows) {
  return def_from_rows("", Fn::kName, make_binary<compare_op<Fn>>, infer_broadcast_bool, rows);
}

// And, Or, Xor: C = Fn(A, B) on bool tensors, broadcast as the comparisons are.
inline constexpr SignatureText kLogicalRows[] = {
    {1, "A: T, B: T -> C: T1; T = bool, T1 = bool; axis: int?, broadcast: int = 0"},
    {7, "A: T, B: T -> C: T1; T = bool, T1 = bool"}};

template <typename Fn>
void logical_op(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  if (a.type() != ElemType::Bool) kernels::unsupported_type(a.type(), Fn::kName);
  if (b.type() != ElemType::Bool) kernels::unsupported_type(b.type(), Fn::kName);
  kernels::binary_map_into<bool, bool, bool>(a, b, out, ElemType::Bool, pool, Fn{});
}
template <typename Fn>
OpDef logical_def() {
  return def_from_rows("", Fn::kName, make_binary<logical_op<Fn>>, infer_broadcast_bool,
                       kLogicalRows);
}

}  // namespace bough::ops
