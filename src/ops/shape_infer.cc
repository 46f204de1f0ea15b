#include "ops/shape_infer.h"

#include <algorithm>

namespace bough::ops {

namespace {

ir::Dim broadcast_dim(const InferContext& ctx, const ir::Dim& a, const ir::Dim& b) {
  if (a.is_known() && a.value == 1) return b;
  if (b.is_known() && b.value == 1) return a;
  if (a == b) return a;
  if (a.is_known() && b.is_known())
    ctx.fails_when_run("shapes cannot be broadcast: dims " + std::to_string(a.value) + " and " +
                       std::to_string(b.value));
  // A known dim above 1 fixes the result (the other must equal it at run time).
  if (a.is_known()) return a;
  if (b.is_known()) return b;
  return ir::Dim::unknown();
}

ir::Shape broadcast_all(const InferContext& ctx) {
  ir::Shape out = ctx.input_shape(0);
  for (size_t i = 1; i < ctx.num_inputs(); ++i)
    if (ctx.has_input(i)) out = broadcast_shapes(ctx, out, ctx.input_shape(i));
  return out;
}

// Before opset 7, Add/Sub/Mul/Div/... with broadcast=1 take B into A's shape.
bool legacy_broadcast(const InferContext& ctx) {
  return ctx.since < 7 && ctx.attr_int("broadcast", 0) != 0;
}

}  // namespace

ir::Shape broadcast_shapes(const InferContext& ctx, const ir::Shape& a, const ir::Shape& b) {
  if (!a.rank_known || !b.rank_known) return ir::Shape::unknown_rank();
  size_t rank = std::max(a.dims.size(), b.dims.size());
  std::vector<ir::Dim> dims(rank);
  for (size_t k = 0; k < rank; ++k) {
    size_t from_end = rank - 1 - k;
    ir::Dim one = ir::Dim::known(1);
    const ir::Dim& da = from_end < a.dims.size() ? a.dims[a.dims.size() - 1 - from_end] : one;
    const ir::Dim& db = from_end < b.dims.size() ? b.dims[b.dims.size() - 1 - from_end] : one;
    dims[k] = broadcast_dim(ctx, da, db);
  }
  return ir::Shape::of(std::move(dims));
}

int64_t normalize_axis(const InferContext& ctx, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank)
    ctx.invalid(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
                std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::optional<std::vector<int64_t>> int_values(const InferContext& ctx, size_t input) {
  const Tensor* t = ctx.input_value(input);
  if (!t) return std::nullopt;
  std::vector<int64_t> v(static_cast<size_t>(t->numel()));
  if (t->type() == ElemType::Int64)
    std::copy_n(t->data<int64_t>(), v.size(), v.begin());
  else if (t->type() == ElemType::Int32)
    std::copy_n(t->data<int32_t>(), v.size(), v.begin());
  else
    return std::nullopt;
  return v;
}

ir::Shape known_shape(const std::vector<int64_t>& dims) {
  std::vector<ir::Dim> out;
  out.reserve(dims.size());
  for (int64_t d : dims) out.push_back(ir::Dim::known(d));
  return ir::Shape::of(std::move(out));
}

ir::Shape unknown_dims(size_t rank) {
  // The rank often comes from a declared dim (the length of a shape input), which an
  // untrusted file may set to anything: past any real rank, claim nothing.
  constexpr size_t kLargestRankInferred = 1024;
  if (rank > kLargestRankInferred) return ir::Shape::unknown_rank();
  return ir::Shape::of(std::vector<ir::Dim>(rank));
}

void infer_same_as_first(InferContext& ctx) { ctx.set_output(0, ctx.input_type(0)); }

void infer_broadcast(InferContext& ctx) {
  ir::Shape shape = legacy_broadcast(ctx) ? ctx.input_shape(0) : broadcast_all(ctx);
  ctx.set_output_tensor(0, ctx.input_elem(0), std::move(shape));
}

void infer_broadcast_bool(InferContext& ctx) {
  ir::Shape shape = legacy_broadcast(ctx) ? ctx.input_shape(0) : broadcast_all(ctx);
  ctx.set_output_tensor(0, ElemType::Bool, std::move(shape));
}

}  // namespace bough::ops

// --- A ---
namespace bough::ops {

void infer_shape_of_first(InferContext& ctx, ElemType elem) {
  ctx.set_output_tensor(0, elem, ctx.input_shape(0));
}

const ir::Shape* ranked_first_input(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  if (s.rank_known) return &s;
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::unknown_rank());
  return nullptr;
}

bool is_empty(const ir::Shape& shape) {
  return shape.rank_known &&
         std::any_of(shape.dims.begin(), shape.dims.end(),
                     [](const ir::Dim& d) { return d.is_known() && d.value == 0; });
}

ir::Shape reduced_shape(const InferContext& ctx, const ir::Shape& in,
                        const std::optional<std::vector<int64_t>>& axes, bool keepdims) {
  if (!in.rank_known) return ir::Shape::unknown_rank();
  const size_t rank = in.dims.size();
  if (!axes) return keepdims ? unknown_dims(rank) : ir::Shape::unknown_rank();
  std::vector<bool> reduced(rank, axes->empty());
  for (int64_t a : *axes)
    reduced[static_cast<size_t>(normalize_axis(ctx, a, static_cast<int64_t>(rank), "axis"))] = true;
  std::vector<ir::Dim> dims;
  for (size_t k = 0; k < rank; ++k) {
    if (!reduced[k])
      dims.push_back(in.dims[k]);
    else if (keepdims)
      dims.push_back(ir::Dim::known(1));
  }
  return ir::Shape::of(std::move(dims));
}

}  // namespace bough::ops
