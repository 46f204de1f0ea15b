// Building blocks of the operators' inference functions (schema.h): broadcasting of static
// shapes, axes, constant integer inputs, and the functions whole families share.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ops/schema.h"

namespace bough::ops {

// Multidirectional (numpy) broadcasting of two static shapes: a dim of 1 yields to the
// other; equal known dims or equal symbols stay; a known dim against a symbol or an unknown
// gives the known dim when it is not 1, else unknown. Known dims that differ and are both
// above 1 are invalid (ctx.invalid).
ir::Shape broadcast_shapes(const InferContext& ctx, const ir::Shape& a, const ir::Shape& b);

// `axis` in [-rank, rank) made non-negative; invalid otherwise.
int64_t normalize_axis(const InferContext& ctx, int64_t axis, int64_t rank, const char* what);

// The elements of a known integer input (int32 or int64) as int64; nullopt when not known.
std::optional<std::vector<int64_t>> int_values(const InferContext& ctx, size_t input);

// A shape of known dims.
ir::Shape known_shape(const std::vector<int64_t>& dims);
// A shape of `rank` unknown dims; an unknown rank past 1,024 (a rank read from an untrusted
// declaration).
ir::Shape unknown_dims(size_t rank);

// Output 0 has the type of input 0 (unary elementwise ops, activations, normalizations).
void infer_same_as_first(InferContext& ctx);
// Output 0 has input 0's element type and the broadcast shape of every input (Add, Where's
// data, Sum, Max); before opset 7, an explicit `broadcast` gives input 0's shape.
void infer_broadcast(InferContext& ctx);
// As infer_broadcast with bool elements (comparisons, logical ops).
void infer_broadcast_bool(InferContext& ctx);

}  // namespace bough::ops

// --- A ---
namespace bough::ops {

// Output 0 has input 0's shape and element type `elem` (IsNaN, QuantizeLinear, BitCast, ...).
void infer_shape_of_first(InferContext& ctx, ElemType elem);

// Input 0's shape when its rank is known. Else null, with output 0 set to a tensor of input
// 0's element type and unknown rank: all an operator whose output keeps its input's type and
// takes a shape from its input's can say then (Pad, Slice, Tile, Resize, ...).
const ir::Shape* ranked_first_input(InferContext& ctx);

// Whether a tensor of this shape surely has no elements (a known dim of 0).
bool is_empty(const ir::Shape& shape);

// The shape of a reduction of `in` over `axes` (empty: every axis), reduced dims kept as 1
// when keepdims; unknown `axes` keep the rank when keepdims, else give an unknown rank.
ir::Shape reduced_shape(const InferContext& ctx, const ir::Shape& in,
                        const std::optional<std::vector<int64_t>>& axes, bool keepdims);

}  // namespace bough::ops
