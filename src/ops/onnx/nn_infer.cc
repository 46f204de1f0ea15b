#include "ops/onnx/nn_infer.h"

#include <string>

#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace nn_infer_op {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

}  // namespace nn_infer_op
}  // namespace

ir::Dim same_dim(const InferContext& ctx, const ir::Dim& a, const ir::Dim& b, const char* what) {
  if (a.is_known() && b.is_known() && a.value != b.value)
    ctx.fails_when_run(std::string(what) + " differ: " + std::to_string(a.value) + " and " +
                       std::to_string(b.value));
  if (a.is_known()) return a;
  if (b.is_known()) return b;
  if (a.kind == ir::Dim::Kind::Symbol) return a;
  return b;
}

ir::Dim div_dim(const InferContext& ctx, const ir::Dim& a, int64_t b, const char* what) {
  if (b == 1) return a;
  if (!a.is_known() || b <= 0) return ir::Dim::unknown();
  if (a.value % b != 0)
    ctx.fails_when_run(std::string(what) + ": " + std::to_string(a.value) +
                       " is not a multiple of " + std::to_string(b));
  return ir::Dim::known(a.value / b);
}

ir::Dim mul_dim(const ir::Dim& a, int64_t b) {
  if (b == 1) return a;
  if (!a.is_known()) return ir::Dim::unknown();
  return ir::Dim::known(a.value * b);
}

void fill_window_list(const InferContext& ctx, std::vector<int64_t>& v, size_t n, int64_t fill,
                      const char* name) {
  if (v.empty()) {
    v.assign(n, fill);
  } else if (v.size() != n) {
    ctx.invalid(std::string(name) + " has " + std::to_string(v.size()) + " values, expected " +
                std::to_string(n));
  }
}

ir::Shape window_output_shape(const InferContext& ctx, const ir::Shape& x, ir::Dim channels,
                              const std::vector<std::optional<int64_t>>& kernel) {
  using namespace nn_infer_op;
  if (!x.rank_known) return ir::Shape::unknown_rank();
  if (x.dims.size() < 2)
    ctx.invalid("the input needs rank 2 or more (N, C, ...), not " + std::to_string(x.dims.size()));
  const size_t r = x.dims.size() - 2;
  if (kernel.size() != r)
    ctx.invalid("the kernel has " + std::to_string(kernel.size()) + " spatial dims, the input " +
                std::to_string(r));
  kernels::WindowAttrs a = read_window_attrs(ctx);
  fill_window_list(ctx, a.strides, r, 1, "strides");
  fill_window_list(ctx, a.dilations, r, 1, "dilations");
  fill_window_list(ctx, a.pads, 2 * r, 0, "pads");
  std::vector<ir::Dim> dims{x.dims[0], std::move(channels)};
  for (size_t d = 0; d < r; ++d) {
    const int64_t s = a.strides[d], dil = a.dilations[d];
    if (s < 1 || dil < 1) ctx.invalid("strides and dilations must be positive");
    if (kernel[d] && *kernel[d] < 1) ctx.invalid("kernel dimensions must be positive");
    const ir::Dim& in = x.dims[2 + d];
    const bool same =
        a.auto_pad == kernels::AutoPad::SameUpper || a.auto_pad == kernels::AutoPad::SameLower;
    int64_t pb = a.pads[d], pe = a.pads[r + d];
    if (a.auto_pad == kernels::AutoPad::Valid) pb = pe = 0;
    if (same) {
      dims.push_back(in.is_known() ? ir::Dim::known(ceil_div(in.value, s))
                                   : (s == 1 ? in : ir::Dim::unknown()));
      continue;
    }
    if (!kernel[d]) {
      dims.push_back(ir::Dim::unknown());
      continue;
    }
    const int64_t span = (*kernel[d] - 1) * dil + 1;
    if (!in.is_known()) {
      // Only a window that keeps the size keeps a symbol.
      dims.push_back(s == 1 && span == 1 && pb == 0 && pe == 0 ? in : ir::Dim::unknown());
      continue;
    }
    const int64_t room = in.value + pb + pe - span;
    if (room < 0)
      ctx.invalid("the window (" + std::to_string(span) + ") is larger than the padded input (" +
                  std::to_string(in.value + pb + pe) + ")");
    int64_t out = (a.ceil_mode ? ceil_div(room, s) : floor_div(room, s)) + 1;
    if (a.ceil_mode && (out - 1) * s >= in.value + pb) --out;
    dims.push_back(ir::Dim::known(out));
  }
  return ir::Shape::of(std::move(dims));
}

void infer_pool(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  std::vector<std::optional<int64_t>> kernel;
  for (int64_t k : read_pool_attrs(ctx, std::string(ctx.node.op_type).c_str()).kernel)
    kernel.push_back(k);
  ir::Shape y = ir::Shape::unknown_rank();
  if (x.rank_known)
    y = window_output_shape(ctx, x, x.dims.size() > 1 ? x.dims[1] : ir::Dim{}, kernel);
  ctx.set_output_tensor(0, ctx.input_elem(0), y);
  if (ctx.num_outputs() > 1) ctx.set_output_tensor(1, ElemType::Int64, y);
}

void infer_global_pool(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (!x.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), x);
  if (x.dims.size() < 2)
    ctx.invalid("the input needs rank 2 or more (N, C, ...), not " + std::to_string(x.dims.size()));
  std::vector<ir::Dim> dims(x.dims.size(), ir::Dim::known(1));
  dims[0] = x.dims[0];
  dims[1] = x.dims[1];
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

ir::Shape matmul_shape(const InferContext& ctx, size_t ia, size_t ib) {
  return matmul_shape(ctx, ctx.input_shape(ia), ctx.input_shape(ib));
}

ir::Shape matmul_shape(const InferContext& ctx, const ir::Shape& a, const ir::Shape& b) {
  if (!a.rank_known || !b.rank_known) return ir::Shape::unknown_rank();
  if (a.dims.empty() || b.dims.empty()) ctx.invalid("MatMul inputs cannot be scalars");
  const size_t ra = a.dims.size(), rb = b.dims.size();
  same_dim(ctx, a.dims[ra - 1], rb == 1 ? b.dims[0] : b.dims[rb - 2], "the contracted dims");
  ir::Shape batch_a = ir::Shape::of({}), batch_b = ir::Shape::of({});
  if (ra > 2) batch_a.dims.assign(a.dims.begin(), a.dims.end() - 2);
  if (rb > 2) batch_b.dims.assign(b.dims.begin(), b.dims.end() - 2);
  ir::Shape out = broadcast_shapes(ctx, batch_a, batch_b);
  if (ra >= 2) out.dims.push_back(a.dims[ra - 2]);
  if (rb >= 2) out.dims.push_back(b.dims[rb - 1]);
  return out;
}

size_t conv_spatial_rank(const InferContext& ctx, const ir::Shape& x, const ir::Shape& w) {
  if (x.dims.size() < 3)
    ctx.invalid("the input needs rank 3 or more (N, C, spatial...), not " +
                std::to_string(x.dims.size()));
  if (w.rank_known && w.dims.size() != x.dims.size())
    ctx.invalid("the weights have rank " + std::to_string(w.dims.size()) + ", the input " +
                std::to_string(x.dims.size()));
  return x.dims.size() - 2;
}

ir::Shape conv_output_shape(const InferContext& ctx, size_t w_input) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& w = ctx.input_shape(w_input);
  if (!x.rank_known) return ir::Shape::unknown_rank();
  const size_t r = conv_spatial_rank(ctx, x, w);
  const int64_t group = ctx.attr_int("group", 1);
  if (group < 1) ctx.invalid("group must be positive");
  if (w.rank_known) {
    ir::Dim per_group = div_dim(ctx, x.dims[1], group, "input channels by group");
    same_dim(ctx, per_group, w.dims[1], "input channels / group and the weights' dim 1");
  }
  std::vector<std::optional<int64_t>> kernel(r);
  std::vector<int64_t> ks = ctx.attr_ints("kernel_shape");
  if (!ks.empty()) {
    if (ks.size() != r)
      ctx.invalid("kernel_shape has " + std::to_string(ks.size()) + " values, expected " +
                  std::to_string(r));
    for (size_t d = 0; d < r; ++d) {
      if (w.rank_known)
        same_dim(ctx, ir::Dim::known(ks[d]), w.dims[2 + d], "kernel_shape and the weights' dims");
      kernel[d] = ks[d];
    }
  } else if (w.rank_known) {
    for (size_t d = 0; d < r; ++d) kernel[d] = dim_value(w.dims[2 + d]);
  }
  return window_output_shape(ctx, x, w.rank_known ? w.dims[0] : ir::Dim::unknown(), kernel);
}

ir::Dim add_dims(const ir::Dim& a, const ir::Dim& b) {
  if (b.is_known() && b.value == 0) return a;
  if (a.is_known() && a.value == 0) return b;
  if (a.is_known() && b.is_known()) return ir::Dim::known(a.value + b.value);
  return ir::Dim::unknown();
}

HeadsView heads_view(const InferContext& ctx, size_t input, int64_t heads, const char* what) {
  HeadsView v;
  const ir::Shape& s = ctx.input_shape(input);
  if (!s.rank_known) return v;
  if (s.dims.size() != 3 && s.dims.size() != 4)
    ctx.invalid(std::string(what) + " must be 3-D or 4-D, not rank " +
                std::to_string(s.dims.size()));
  v.known = true;
  v.batch = s.dims[0];
  if (s.dims.size() == 4) {
    v.heads = s.dims[1];
    v.seq = s.dims[2];
    v.size = s.dims[3];
    return v;
  }
  v.packed = true;
  v.seq = s.dims[1];
  if (heads > 0) {
    v.heads = ir::Dim::known(heads);
    v.size =
        div_dim(ctx, s.dims[2], heads, (std::string(what) + "'s hidden size by its heads").c_str());
  }
  return v;
}

}  // namespace bough::ops
