// TensorScatter: a copy of past_cache [batch, ..., max_len, ...] with `update` (the same shape
// but seq_len along `axis`, default -2) written at write_indices[batch] (default 0) along the
// axis; mode "circular" wraps positions modulo max_len, "linear" (default) requires them to
// fit.
#include <algorithm>

#include "kernels/dispatch.h"
#include "kernels/layout.h"
#include "kernels/sub_byte.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/optional_input.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace tensor_scatter_op {

class TensorScatter : public Kernel {
 public:
  TensorScatter(int64_t axis, bool circular) : axis_(axis), circular_(circular) {}

  void run(KernelIO& io) override {
    const Tensor& past = io.input(0);
    const Tensor& update = io.input(1);
    const auto rank = static_cast<int64_t>(past.rank());
    const auto axis = static_cast<size_t>(kernels::normalize_axis(axis_, rank));
    if (axis == 0) fail(ErrorKind::BadInput, "", "TensorScatter's axis cannot be the batch axis");
    if (update.type() != past.type())
      fail(ErrorKind::BadInput, "", "update and past_cache have different element types");
    bool fits = update.rank() == past.rank();
    for (size_t d = 0; fits && d < past.rank(); ++d)
      fits = d == axis ? update.dim(d) <= past.dim(d) : update.dim(d) == past.dim(d);
    if (!fits)
      fail(ErrorKind::BadInput, "",
           "update of shape " + shape_string(update.shape()) +
               " does not fit past_cache of shape " + shape_string(past.shape()));
    const int64_t batch = past.dim(0), max_len = past.dim(axis), len = update.dim(axis);
    std::vector<int64_t> write(static_cast<size_t>(batch), 0);
    if (given_input(io, 2)) {
      const Tensor& wi = io.input(2);
      if (wi.numel() != batch || (wi.type() != ElemType::Int64 && wi.type() != ElemType::Int32))
        fail(ErrorKind::BadInput, "", "write_indices must hold one integer per batch entry");
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t w = wi.get_int(b);
        if (w < 0 || (!circular_ && w + len > max_len))
          fail(ErrorKind::BadInput, "",
               "write index " + std::to_string(w) + " with " + std::to_string(len) +
                   " updates does not fit " + std::to_string(max_len) + " positions");
        write[static_cast<size_t>(b)] = w;
      }
    }
    if (!is_sub_byte(past.type())) return io.set_output(0, scatter(past, update, axis, write));
    // Sub-byte elements are moved as one field per byte, then packed again.
    io.set_output(0, kernels::packed_fields(scatter(kernels::unpacked_fields(past),
                                                    kernels::unpacked_fields(update), axis, write),
                                            past.type()));
  }

 private:
  // A copy of `past` with `update` written at `write[b]` along `axis` for every batch entry b.
  Tensor scatter(const Tensor& past, const Tensor& update, size_t axis,
                 const std::vector<int64_t>& write) const {
    const int64_t batch = past.dim(0), max_len = past.dim(axis), len = update.dim(axis);
    int64_t per_batch = 1, inner = 1;  // blocks between the batch axis and `axis`; block size
    for (size_t d = 1; d < axis; ++d) per_batch *= past.dim(d);
    for (size_t d = axis + 1; d < past.rank(); ++d) inner *= past.dim(d);
    Tensor out = past.clone();
    kernels::visit_storage(past.type(), "TensorScatter", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(update);
      T* dst = kernels::elements<T>(out);
      for (int64_t p = 0; p < batch * per_batch; ++p) {
        const int64_t w = write[static_cast<size_t>(p / per_batch)];
        for (int64_t s = 0; s < len; ++s) {
          const int64_t at = circular_ ? (w + s) % max_len : w + s;
          std::copy_n(src + (p * len + s) * inner, inner, dst + (p * max_len + at) * inner);
        }
      }
    });
    return out;
  }

  int64_t axis_;
  bool circular_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool circular =
      attr_choice<bool>(ctx, "mode", "linear", {{"linear", false}, {"circular", true}});
  return std::make_unique<TensorScatter>(ctx.attr_int("axis", -2), circular);
}

void infer(InferContext& ctx) {
  const ir::Shape& past = ctx.input_shape(0);
  const ir::Shape& update = ctx.input_shape(1);
  if (past.rank_known && update.rank_known) {
    if (past.dims.size() != update.dims.size()) ctx.invalid("past_cache and update differ in rank");
    const auto axis = static_cast<size_t>(normalize_axis(
        ctx, ctx.attr_int("axis", -2), static_cast<int64_t>(past.dims.size()), "axis"));
    ir::Shape out = past;
    for (size_t k = 0; k < out.dims.size(); ++k)
      if (k != axis)
        out.dims[k] =
            layout_infer::merge_dims(ctx, past.dims[k], update.dims[k],
                                     "past_cache and update on axis " + std::to_string(k));
    ctx.set_output_tensor(0, ctx.input_elem(0), std::move(out));
    return;
  }
  infer_same_as_first(ctx);
}

constexpr SignatureText kRows[] = {
    {24,
     "past_cache: T, update: T, write_indices?: tensor(int64) -> present_cache: T; T = "
     "all_ir12; axis: int = -2, mode: string = linear"}};

}  // namespace tensor_scatter_op
}  // namespace

OpDef def_TensorScatter() {
  using namespace tensor_scatter_op;
  return def_from_rows("", "TensorScatter", make, infer, kRows);
}

}  // namespace bough::ops
