// CausalConvWithState: a causal depthwise 1-D convolution with carried state. Each channel of
// input (batch, channels, length) is left-padded with past_state (batch, channels, k - 1), or
// zeros, and convolved with its own kernel weight[c, 0, :] of size k, plus bias[c]:
// y[b, c, t] = bias[c] + sum_i weight[c, 0, i] * padded[b, c, t + i], optionally followed by
// SiLU (activation "silu" or "swish"). present_state holds the last k - 1 padded positions.
// float16/bfloat16 go through float.
#include <array>
#include <cmath>
#include <string>

#include "kernels/through_float.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace causal_conv_with_state_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "CausalConvWithState " + message);
}

template <typename T>
void causal_conv(const Tensor& x, const Tensor& w, const Tensor* bias, const Tensor* past,
                 bool silu, Tensor& y, Tensor& present, util::ThreadPool& pool) {
  const int64_t channels = x.dim(1), len = x.dim(2), k = w.dim(2), carry = k - 1;
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  const T* pb = bias ? bias->data<T>() : nullptr;
  const T* pp = past ? past->data<T>() : nullptr;
  T* py = y.data<T>();
  T* ps = present.data<T>();
  const int64_t grain = util::grain_for(len * k * kernels::kElementWork);
  pool.parallel_for(x.dim(0) * channels, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t c = r % channels;
      const T* xr = px + r * len;
      const T* sr = pp ? pp + r * carry : nullptr;
      const T* wr = pw + c * k;
      // Position p of the padded row: the past for p < carry, then the input.
      auto padded = [&](int64_t p) { return p < carry ? (sr ? sr[p] : T(0)) : xr[p - carry]; };
      for (int64_t t = 0; t < len; ++t) {
        T acc = pb ? pb[c] : T(0);
        for (int64_t i = 0; i < k; ++i) acc += wr[i] * padded(t + i);
        py[r * len + t] = silu ? acc / (T(1) + std::exp(-acc)) : acc;
      }
      for (int64_t i = 0; i < carry; ++i) ps[r * carry + i] = padded(len + i);
    }
  });
}

class CausalConvWithState : public Kernel {
 public:
  explicit CausalConvWithState(bool silu) : silu_(silu) {}

  void run(KernelIO& io) override {
    const Tensor& x_in = io.input(0);
    const Tensor& w_in = io.input(1);
    const Tensor* bias_in = io.has_input(2) ? &io.input(2) : nullptr;
    const Tensor* past_in = io.has_input(3) ? &io.input(3) : nullptr;
    const ElemType t = x_in.type();
    if (w_in.type() != t || (bias_in && bias_in->type() != t) || (past_in && past_in->type() != t))
      bad("inputs must have one element type");
    if (x_in.rank() != 3) bad("input must be 3-D, got " + shape_string(x_in.shape()));
    const int64_t batch = x_in.dim(0), channels = x_in.dim(1);
    if (w_in.rank() != 3 || w_in.dim(0) != channels || w_in.dim(1) != 1 || w_in.dim(2) < 1)
      bad("weight must have shape (" + std::to_string(channels) + ", 1, k >= 1), got " +
          shape_string(w_in.shape()));
    const int64_t carry = w_in.dim(2) - 1;
    if (bias_in && bias_in->shape() != Dims{channels})
      bad("bias must have shape " + shape_string(Dims{channels}) + ", got " +
          shape_string(bias_in->shape()));
    if (past_in && past_in->shape() != Dims{batch, channels, carry})
      bad("past_state must have shape " + shape_string(Dims{batch, channels, carry}) + ", got " +
          shape_string(past_in->shape()));
    // The output and present_state.
    auto convolve = [&](const Tensor& x, const Tensor& w, const Tensor* bias, const Tensor* past) {
      Tensor y(x.type(), x.shape()), present(x.type(), Dims{batch, channels, carry});
      kernels::visit_float(x.type(), "CausalConvWithState", [&](auto tag) {
        using T = typename decltype(tag)::type;
        causal_conv<T>(x, w, bias, past, silu_, y, present, io.pool());
      });
      return std::array<Tensor, 2>{y, present};
    };
    auto [y, present] = kernels::through_float(convolve, x_in, w_in, bias_in, past_in);
    io.set_output(0, std::move(y));
    io.set_output(1, std::move(present));
  }

 private:
  bool silu_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  // silu and swish name the same function.
  return std::make_unique<CausalConvWithState>(attr_choice<bool>(
      ctx, "activation", "none", {{"none", false}, {"silu", true}, {"swish", true}}));
}

// output has input's type and shape; present_state (batch, channels, k - 1), k the kernel
// size of weight (channels, 1, k).
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& w = ctx.input_shape(1);
  if (x.rank_known && x.dims.size() != 3)
    ctx.invalid("input must be 3-D, not rank " + std::to_string(x.dims.size()));
  if (w.rank_known && w.dims.size() != 3)
    ctx.invalid("weight must be 3-D, not rank " + std::to_string(w.dims.size()));
  ir::Dim batch, channels, carry;
  if (x.rank_known) {
    batch = x.dims[0];
    channels = x.dims[1];
  }
  if (w.rank_known) {
    channels = same_dim(ctx, channels, w.dims[0], "the channels of input and weight");
    if (w.dims[2].is_known()) carry = ir::Dim::known(w.dims[2].value - 1);
  }
  ctx.set_output(0, ctx.input_type(0));
  ctx.set_output_tensor(1, ctx.input_elem(0), ir::Shape::of({batch, channels, carry}));
}

constexpr SignatureText kRows[] = {
    {27,
     "input: T, weight: T, bias?: T, past_state?: T -> output: T, present_state: T; T = float "
     "float16 bfloat16; activation: string = none"}};

}  // namespace causal_conv_with_state_op
}  // namespace

OpDef def_CausalConvWithState() {
  using namespace causal_conv_with_state_op;
  return def_from_rows("", "CausalConvWithState", make, infer, kRows);
}

}  // namespace bough::ops
