// Inference pieces the data-movement operators share (Reshape, Concat, Flatten, Squeeze,
// Slice, Pad, Gather, ...): products of dims, merging two views of one dim, axis lists, and
// integer arguments that moved from attributes to inputs over the versions.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ops/shape_infer.h"

namespace bough::ops::layout_infer {

// The product of dims [begin, end): known when all are known; a single symbol among known 1s
// stays that symbol; otherwise unknown.
inline ir::Dim dim_product(const std::vector<ir::Dim>& dims, size_t begin, size_t end) {
  int64_t known = 1;
  const ir::Dim* symbol = nullptr;
  int others = 0;
  for (size_t k = begin; k < end; ++k) {
    if (dims[k].is_known())
      known *= dims[k].value;
    else if (dims[k].kind == ir::Dim::Kind::Symbol && !symbol)
      symbol = &dims[k];
    else
      ++others;
  }
  if (others) return ir::Dim::unknown();
  if (known == 0) return ir::Dim::known(0);
  if (!symbol) return ir::Dim::known(known);
  return known == 1 ? *symbol : ir::Dim::unknown();
}

// Two views of one dim (the same axis of two inputs): the known one wins; two known dims
// that differ fail when the node runs.
inline ir::Dim merge_dims(const InferContext& ctx, const ir::Dim& a, const ir::Dim& b,
                          const std::string& what) {
  if (a.is_known() && b.is_known()) {
    if (a.value != b.value)
      ctx.fails_when_run(what + ": dims " + std::to_string(a.value) + " and " +
                         std::to_string(b.value) + " differ");
    return a;
  }
  if (a.is_known()) return a;
  if (b.is_known()) return b;
  return a.kind == ir::Dim::Kind::Symbol ? a : b;
}

// Axes in [-rank, rank) made non-negative; a repeated axis is invalid.
inline std::vector<int64_t> normalize_axes(const InferContext& ctx, std::vector<int64_t> axes,
                                           int64_t rank, const char* what) {
  for (int64_t& a : axes) a = normalize_axis(ctx, a, rank, what);
  std::vector<int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    ctx.invalid(std::string(what) + "s repeat an axis");
  return axes;
}

// The `axes` attribute normalized against `rank` when `given`, else every axis in order.
inline std::vector<int64_t> axes_or_all(const InferContext& ctx, bool given, int64_t rank) {
  if (given) return normalize_axes(ctx, ctx.attr_ints("axes"), rank, "axis");
  std::vector<int64_t> all;
  for (int64_t d = 0; d < rank; ++d) all.push_back(d);
  return all;
}

// An integer list given as attribute `name` before opset `input_since` and as input `input`
// from then on: nullopt when absent or not known before running.
inline std::optional<std::vector<int64_t>> ints_arg(const InferContext& ctx, const char* name,
                                                    int input_since, size_t input) {
  if (ctx.since < input_since) {
    if (!ctx.has_attr(name)) return std::nullopt;
    return ctx.attr_ints(name);
  }
  if (!ctx.has_input(input)) return std::nullopt;
  return int_values(ctx, input);
}

// A dim times a factor: known when the dim is, the dim itself for a factor of 1.
inline ir::Dim dim_times(const ir::Dim& d, int64_t factor) {
  if (factor == 1) return d;
  if (d.is_known()) return ir::Dim::known(d.value * factor);
  return ir::Dim::unknown();
}

}  // namespace bough::ops::layout_infer

namespace bough::ops::layout_infer {

// The elements of a known numeric input as doubles (scales, Range's bounds, OneHot's
// depth); nullopt when not known.
std::optional<std::vector<double>> number_values(const InferContext& ctx, size_t input);

// The sum of dims: known when all are known; a single unknown or symbol among known 0s is
// that dim; otherwise unknown.
ir::Dim dim_sum(const std::vector<ir::Dim>& dims);

// A dim computed in floating point (a dim times a scale, rounded): known when it is a size a
// run could make (0 to 2^40), else unknown, and the run refuses it with a clear error. NaN,
// infinite and huge values never reach an integer conversion (undefined out of range).
ir::Dim computed_dim(double size);

// DepthToSpace's and SpaceToDepth's rank-4 output: with blocksize b, [N, C / b^2, H * b,
// W * b] toward space, [N, C * b^2, H / b, W / b] toward depth; a known dim that b or b^2
// does not divide is invalid. b is bounded to 2^31 - 1 so that b^2 fits in int64.
inline constexpr int64_t kMaxBlocksize = (int64_t{1} << 31) - 1;
void infer_block_move(InferContext& ctx, bool to_space);
// Their blocksize attribute, when their kernel is built or their output inferred; invalid
// outside 1 to kMaxBlocksize.
int64_t blocksize(const NodeView& node);

// Resize's and Upsample's output dims: floor(dim * scale) on each of `axes` (scale 1 keeps a
// dim, known or not); a count of scales other than axes' is invalid.
std::vector<ir::Dim> scaled_dims(const InferContext& ctx, const std::vector<ir::Dim>& dims,
                                 const std::vector<double>& scales,
                                 const std::vector<int64_t>& axes);

}  // namespace bough::ops::layout_infer
