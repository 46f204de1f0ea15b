// Shape inference shared by the neural-network operators: sliding windows (Conv,
// ConvTranspose, the pools), matrix products (MatMul and its quantized forms), and dims that
// two inputs must agree on.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ops/shape_infer.h"

namespace bough::ops {

// The dim both a and b describe: a known dim or symbol wins over an unknown one; two known
// dims that differ are invalid (`what` names them).
ir::Dim same_dim(const InferContext& ctx, const ir::Dim& a, const ir::Dim& b, const char* what);

// a / b for a known dim and a positive divisor (invalid when it does not divide); unknown
// otherwise.
ir::Dim div_dim(const InferContext& ctx, const ir::Dim& a, int64_t b, const char* what);
// a * b for a known dim; unknown otherwise (a kept when b is 1).
ir::Dim mul_dim(const ir::Dim& a, int64_t b);

// The known value of a dim, if any.
inline std::optional<int64_t> dim_value(const ir::Dim& d) {
  if (d.is_known()) return d.value;
  return std::nullopt;
}

// A window attribute list (strides, pads, ...) of `n` values: `fill` repeated when empty;
// another length is invalid.
void fill_window_list(const InferContext& ctx, std::vector<int64_t>& v, size_t n, int64_t fill,
                      const char* name);

// The output shape (N, channels, spatial...) of a Conv or pooling window over input shape x
// (N, C, spatial...). `kernel` is the kernel's spatial size (from the weights or
// kernel_shape; nullopt entries unknown). Window attributes are read from the node; a
// kernel, stride, dilation or pad list of the wrong length, or a window larger than the
// padded input, is invalid. Unknown rank in gives unknown rank out.
ir::Shape window_output_shape(const InferContext& ctx, const ir::Shape& x, ir::Dim channels,
                              const std::vector<std::optional<int64_t>>& kernel);

// For the pools: kernel_shape from the attributes; Y (N, C, out...) of input 0's element type
// to output 0, and the same shape as int64 to output 1 when there is one (MaxPool's Indices).
void infer_pool(InferContext& ctx);
// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: (N, C, 1, ..., 1).
void infer_global_pool(InferContext& ctx);

// The numpy matmul shape of a (input `ia`) by b (input `ib`); a contracted dim that differs
// is invalid.
ir::Shape matmul_shape(const InferContext& ctx, size_t ia, size_t ib);
// The same for shapes a and b given directly (operands transposed first, say).
ir::Shape matmul_shape(const InferContext& ctx, const ir::Shape& a, const ir::Shape& b);

// The spatial rank of a convolution's input x (N, C, spatial...) of known rank; a rank below 3,
// or weights w of another rank, is invalid.
size_t conv_spatial_rank(const InferContext& ctx, const ir::Shape& x, const ir::Shape& w);

// Conv, ConvInteger and QLinearConv: (N, M, out...) from X (N, C, in...; input 0), W (M,
// C / group, k...; input `w_input`) and the window attributes; channels that do not match the
// weights are invalid.
ir::Shape conv_output_shape(const InferContext& ctx, size_t w_input = 1);

// a + b when both are known; a when b is known 0; unknown otherwise.
ir::Dim add_dims(const ir::Dim& a, const ir::Dim& b);

// A packed (batch, seq, heads * size) or split (batch, heads, seq, size) attention operand:
// its dims with `heads` (the attribute, 0 when not given) unpacked where known.
struct HeadsView {
  bool known = false;  // rank 3 or 4
  bool packed = false;
  ir::Dim batch, heads, seq, size;
};
HeadsView heads_view(const InferContext& ctx, size_t input, int64_t heads, const char* what);
}  // namespace bough::ops
