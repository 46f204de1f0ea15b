// The constant weights of Conv and ConvTranspose, prepared once at plan time: the filter in
// the layout the operator's matrix products read, and the bias, both in the compute type
// (float for float16/bfloat16), so that a run neither reshuffles nor converts them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "kernels/dispatch.h"
#include "kernels/through_float.h"
#include "ops/constant_use.h"
#include "ops/registry.h"

namespace bough::ops {

struct PreparedFilter {
  ElemType type = ElemType::Undefined;  // W's element type, which X (and B) must have
  Dims w_shape;                         // W's shape, to check X against
  std::optional<Dims> b_shape;          // B's shape, when B is given
  Tensor w;                             // the filter as the operator's GEMMs read it
  Tensor b;                             // B in the compute type; undefined when absent

  // convolve<T>(x, w, b) over X widened to the compute type T (`tag` names it) with the
  // prepared filter and bias (b null when absent), rounded back to X's type.
  template <typename Convolve>
  Tensor apply(const Tensor& x, const char* op, Convolve&& convolve) const {
    const Tensor xc = kernels::widen(x);
    const Tensor y = kernels::visit_float(
        xc.type(), op, [&](auto tag) { return convolve(tag, xc, w, b.defined() ? &b : nullptr); });
    return kernels::narrow_to(y, x.type());
  }
};

// What the checks of a run need of W and B: their types and shapes, from the inputs or from
// what was prepared.
struct FilterInfo {
  ElemType w_type;
  const Dims& w_shape;
  ElemType b_type;      // w_type when B is absent
  const Dims* b_shape;  // null when B is absent
};
inline FilterInfo filter_info(const PreparedFilter& p) {
  return {p.type, p.w_shape, p.type, p.b_shape ? &*p.b_shape : nullptr};
}
inline FilterInfo filter_info(const Tensor& w, const Tensor* b) {
  return {w.type(), w.shape(), b ? b->type() : w.type(), b ? &b->shape() : nullptr};
}

// Throws BadInput unless X, W and B (when given) have one element type.
inline void check_filter_types(const Tensor& x, const FilterInfo& f, const char* op) {
  if (x.type() != f.w_type || (f.b_shape && f.b_type != x.type()))
    fail(ErrorKind::BadInput, "", std::string(op) + " inputs have different element types");
}

// The prepared weights when W (input 1) and B (input 2, when given) are constant tensors of
// one float type, else null (the kernel then reads them on every run, which also reports
// what is wrong with them). `layout(w)` gives the filter's GEMM layout from W in the compute
// type.
template <typename Layout>
std::unique_ptr<const PreparedFilter> prepare_filter(const BuildContext& ctx, Layout&& layout) {
  const Tensor* w = ctx.constant_input(1);
  const bool has_b = ctx.node.inputs.size() > 2 && ctx.node.inputs[2];
  const Tensor* b = has_b ? ctx.constant_input(2) : nullptr;
  if (!w || (has_b && !b) || !kernels::is_computed_float(w->type()) ||
      (b && b->type() != w->type()))
    return nullptr;
  auto p = std::make_unique<PreparedFilter>();
  p->type = w->type();
  p->w_shape = w->shape();
  p->w = layout(kernels::widen(*w));
  if (!p->w.defined()) return nullptr;  // W does not fit the operator's attributes
  if (b) {
    p->b_shape = b->shape();
    p->b = kernels::widen(*b);
  }
  ctx.count_prepared(b ? 2 : 1);
  consume_constant_input(ctx, 1);  // the kernels read only the prepared form from here on
  if (b) consume_constant_input(ctx, 2);
  return p;
}

}  // namespace bough::ops
