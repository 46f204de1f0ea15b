// com.microsoft Attention-1: self attention with the Q, K and V projections packed in one
// weight. input (B, S, D_in) · weights (D_in, Dq + Dk + Dv) + bias (Dq + Dk + Dv) gives Q, K
// and V side by side; qkv_hidden_sizes [Dq, Dk, Dv] (default three equal thirds; Dq = Dk).
// past (2, B, N, P, H) holds the past key and value, prepended to K and V; present (2, B, N,
// P + S, H) the results (past and present need Dq = Dk = Dv). mask_index (int32): key lengths
// (B), lengths then first kept keys (2 * B), 0/1 flags (B, T) or (B, S, T); masked keys get
// mask_filter_value added. attention_bias (B or 1, N or 1, S, T) is added to the scaled
// scores; unidirectional hides key j from query i when j > P + i. The output is (B, S, Dv).
//
// Refused, as on ONNX Runtime's CPU provider or beyond this operator: the 4-D Megatron mask
// and (3 * B + 2) index, shared past/present buffers (past_sequence_length), do_rotary.
// float16/bfloat16 compute in float.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "kernels/matmul.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/microsoft/attention_core.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "Attention: " + message);
}

enum Input { kInput, kWeights, kBias, kMaskIndex, kPast, kAttentionBias };

struct Options {
  int64_t heads = 0;
  std::vector<int64_t> hidden;  // qkv_hidden_sizes, or empty
  float filter = -10000.0f;
  std::optional<float> scale;
  bool causal = false;
};

// [Dq, Dk, Dv] from qkv_hidden_sizes or the weights' width.
std::vector<int64_t> hidden_sizes(const std::vector<int64_t>& attr, int64_t width) {
  if (!attr.empty()) {
    if (attr[0] + attr[1] + attr[2] != width)
      bad("qkv_hidden_sizes add up to " + std::to_string(attr[0] + attr[1] + attr[2]) +
          ", not the weights' " + std::to_string(width) + " columns");
    return attr;
  }
  if (width % 3 != 0)
    bad("the weights' " + std::to_string(width) + " columns are not three equal parts");
  return {width / 3, width / 3, width / 3};
}

class Attention : public Kernel {
 public:
  explicit Attention(Options o) : o_(std::move(o)) {}

  void run(KernelIO& io) override {
    const ElemType type = io.input(kInput).type();
    for (int i : {kWeights, kBias, kPast, kAttentionBias})
      if (io.has_input(i) && io.input(i).type() != type)
        bad("every float input must have the input's element type");
    const Tensor x = kernels::widen(io.input(kInput));
    const Tensor w = kernels::widen(io.input(kWeights));
    if (x.rank() != 3 || w.rank() != 2 || w.dim(0) != x.dim(2))
      bad("input " + shape_string(x.shape()) + " and weights " + shape_string(w.shape()) +
          " are not (batch, sequence, hidden) and (hidden, Q + K + V widths)");
    const std::vector<int64_t> d = hidden_sizes(o_.hidden, w.dim(1));
    const int64_t batch = x.dim(0), seq = x.dim(1), n = o_.heads, width = w.dim(1);
    if (d[0] != d[1] || d[0] % n != 0 || d[2] % n != 0)
      bad("Q and K widths " + std::to_string(d[0]) + " and " + std::to_string(d[1]) +
          " must be equal, and they and V's " + std::to_string(d[2]) + " multiples of num_heads " +
          std::to_string(n));
    const int64_t size = d[0] / n, v_size = d[2] / n;

    Tensor qkv = kernels::matmul(x, w, io.pool());  // (B, S, width)
    Tensor bias;
    if (io.has_input(kBias)) {
      bias = kernels::widen(io.input(kBias));
      if (bias.shape() != Dims{width})
        bad("bias must have shape (" + std::to_string(width) + "), got " +
            shape_string(bias.shape()));
    }
    const float* b = io.has_input(kBias) ? bias.data<float>() : nullptr;

    int64_t past = 0;
    Tensor past_kv;
    if (io.has_input(kPast)) {
      past_kv = kernels::widen(io.input(kPast));
      if (d[0] != d[2]) bad("past needs equal Q, K and V widths");
      past = past_kv.rank() == 5 ? past_kv.dim(3) : -1;
      if (past_kv.shape() != Dims{2, batch, n, past, size})
        bad("past of shape " + shape_string(past_kv.shape()) + " is not (2, " +
            std::to_string(batch) + ", " + std::to_string(n) + ", past, " + std::to_string(size) +
            ")");
    }
    const int64_t total = past + seq;

    const float* src = qkv.data<float>();
    Tensor qh(ElemType::Float, Dims{batch, n, seq, size});
    Tensor present(ElemType::Float, Dims{2, batch, n, total, size});
    Tensor kh(ElemType::Float, Dims{batch, n, total, size});
    Tensor vh(ElemType::Float, Dims{batch, n, total, v_size});
    contrib::to_heads(src, width, b, batch, seq, n, size, qh.data<float>(), seq, 0);
    if (past > 0) {
      const float* pk = past_kv.data<float>();
      contrib::copy_past(pk, batch, n, past, size, kh.data<float>(), total);
      contrib::copy_past(pk + batch * n * past * size, batch, n, past, size, vh.data<float>(),
                         total);
    }
    contrib::to_heads(src + d[0], width, b ? b + d[0] : nullptr, batch, seq, n, size,
                      kh.data<float>(), total, past);
    contrib::to_heads(src + 2 * d[0], width, b ? b + 2 * d[0] : nullptr, batch, seq, n, v_size,
                      vh.data<float>(), total, past);

    contrib::AttentionProblem p = contrib::problem_of(qh, kh, vh, o_.scale);
    std::vector<float> mask;
    if (io.has_input(kMaskIndex)) {
      mask =
          contrib::mask_term(io.input(kMaskIndex), batch, seq, total, o_.filter, true, "Attention");
      p.mask = mask.data();
    }
    Tensor attention_bias;
    if (io.has_input(kAttentionBias)) {
      attention_bias = kernels::widen(io.input(kAttentionBias));
      contrib::set_attention_bias(p, attention_bias, "Attention");
    }
    p.causal = o_.causal;
    p.past = past;
    const Tensor y = contrib::attend_to_new(p, io.pool());
    io.set_output(0, kernels::narrow_to(y, type));
    if (io.has_output(1)) {
      // present = [K; V], both (B, N, T, H).
      float* pr = present.data<float>();
      std::copy(kh.data<float>(), kh.data<float>() + kh.numel(), pr);
      std::copy(vh.data<float>(), vh.data<float>() + vh.numel(), pr + kh.numel());
      io.set_output(1, kernels::narrow_to(present, type));
    }
  }

 private:
  Options o_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Options o;
  o.heads = ctx.attr_int("num_heads", 0);
  if (o.heads <= 0) ctx.invalid("num_heads must be positive");
  o.hidden = ctx.attr_ints("qkv_hidden_sizes");
  if (!o.hidden.empty() &&
      (o.hidden.size() != 3 || o.hidden[0] <= 0 || o.hidden[1] <= 0 || o.hidden[2] <= 0))
    ctx.invalid("qkv_hidden_sizes must hold three positive sizes");
  if (ctx.attr_int("do_rotary", 0) != 0) ctx.invalid("do_rotary is not supported");
  if (ctx.attr_int("past_present_share_buffer", 0) != 0)
    ctx.invalid("past_present_share_buffer is not supported");
  const auto& in = ctx.node.inputs;
  if (in.size() > 6 && in[6]) ctx.invalid("past_sequence_length is not supported");
  o.filter = ctx.attr_float("mask_filter_value", -10000.0f);
  if (ctx.has_attr("scale")) o.scale = ctx.attr_float("scale", 1.0f);
  o.causal = ctx.attr_int("unidirectional", 0) != 0;
  return std::make_unique<Attention>(std::move(o));
}

// output (B, S, Dv); present (2, B, N, P + S, Dq / N).
void infer(InferContext& ctx) {
  const int64_t n = ctx.attr_int("num_heads", 0);
  if (n <= 0) ctx.invalid("num_heads must be positive");
  const ir::Shape& x = ctx.input_shape(kInput);
  const ir::Shape& w = ctx.input_shape(kWeights);
  const ElemType elem = ctx.input_elem(kInput);
  if (!x.rank_known || !w.rank_known) {
    for (size_t i = 0; i < ctx.num_outputs(); ++i)
      ctx.set_output_tensor(i, elem, ir::Shape::unknown_rank());
    return;
  }
  if (x.dims.size() != 3 || w.dims.size() != 2) ctx.invalid("input must be 3-D and weights 2-D");
  same_dim(ctx, x.dims[2], w.dims[0], "the input's hidden size and the weights' rows");
  const std::vector<int64_t> sizes = ctx.attr_ints("qkv_hidden_sizes");
  ir::Dim q_width = ir::Dim::unknown(), v_width = ir::Dim::unknown();
  if (sizes.size() == 3) {
    q_width = ir::Dim::known(sizes[0]);
    v_width = ir::Dim::known(sizes[2]);
  } else if (w.dims[1].is_known()) {
    q_width = v_width = div_dim(ctx, w.dims[1], 3, "the weights' columns into Q, K and V");
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of({x.dims[0], x.dims[1], v_width}));
  if (ctx.num_outputs() > 1) {
    ir::Dim total = x.dims[1];
    if (ctx.has_input(kPast)) {
      const ir::Shape& past = ctx.input_shape(kPast);
      total = past.rank_known && past.dims.size() == 5 ? add_dims(past.dims[3], total)
                                                       : ir::Dim::unknown();
    }
    const ir::Dim size = q_width.is_known() ? div_dim(ctx, q_width, n, "the Q width by num_heads")
                                            : ir::Dim::unknown();
    ctx.set_output_tensor(
        1, elem, ir::Shape::of({ir::Dim::known(2), x.dims[0], ir::Dim::known(n), total, size}));
  }
}

constexpr SignatureText kRows[] = {
    {1,
     "input: T, weights: T, bias?: T, mask_index?: M, past?: T, attention_bias?: T, "
     "past_sequence_length?: M -> output: T, present?: T; T = float float16 bfloat16, M = "
     "int32; do_rotary: int = 0, mask_filter_value: float = -10000.0, num_heads: int, "
     "past_present_share_buffer: int = 0, qkv_hidden_sizes: ints?, rotary_embedding_dim: int "
     "= 0, scale: float?, unidirectional: int = 0"}};

}  // namespace attention_op
}  // namespace

OpDef def_MsAttention() {
  using namespace attention_op;
  return def_from_rows("com.microsoft", "Attention", make, infer, kRows);
}

}  // namespace bough::ops
