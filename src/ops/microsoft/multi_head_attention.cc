// com.microsoft MultiHeadAttention-1: attention over separately projected Q, K and V.
// query (B, S, D) with D = num_heads * H; key (B, L, D) and value (B, L, Dv), or key and value
// already split into heads, (B, N, L, H) and (B, N, L, Hv) (cross attention reusing them);
// bias (D + D + Dv) is added to the projections of 3-D Q, K and V. past_key / past_value
// (B, N, P, H / Hv) are prepended to K and V: present_key / present_value (B, N, P + L, ...).
// key_padding_mask (int32) is the key lengths (B), or 0/1 flags (B, T) or (B, S, T) with T =
// P + L; masked keys get mask_filter_value added to their scores. attention_bias (B or 1, N or
// 1, S, T) is added to the scaled scores. unidirectional removes key j for query i when
// j > P + i. The output is (B, S, N * Hv).
//
// As on ONNX Runtime's CPU provider, packed QKV/KV inputs (5-D query or key), shared past and
// present buffers (past_sequence_length), beam-search cache_indirection, the qk output and the
// (3 * B + 2) mask are refused. float16/bfloat16 compute in float.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/microsoft/attention_core.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace multi_head_attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "MultiHeadAttention: " + message);
}

enum Input { kQuery, kKey, kValue, kBias, kPaddingMask, kAttentionBias, kPastKey, kPastValue };

class MultiHeadAttention : public Kernel {
 public:
  MultiHeadAttention(int64_t heads, float filter, std::optional<float> scale, bool causal)
      : heads_(heads), filter_(filter), scale_(scale), causal_(causal) {}

  void run(KernelIO& io) override {
    const ElemType type = io.input(kQuery).type();
    for (int i : {kKey, kValue, kBias, kAttentionBias, kPastKey, kPastValue})
      if (io.has_input(i) && io.input(i).type() != type)
        bad("every float input must have the query's element type");
    const Tensor q = kernels::widen(io.input(kQuery));
    if (q.rank() != 3)
      bad("query must be (batch, sequence, hidden), got " + shape_string(q.shape()) +
          " (packed QKV is not supported)");
    if (!io.has_input(kKey) || !io.has_input(kValue)) bad("needs key and value");
    const Tensor k = kernels::widen(io.input(kKey));
    const Tensor v = kernels::widen(io.input(kValue));
    const int64_t batch = q.dim(0), q_seq = q.dim(1), hidden = q.dim(2), n = heads_;
    if (hidden % n != 0)
      bad("query hidden size " + std::to_string(hidden) + " is not a multiple of num_heads " +
          std::to_string(n));
    const int64_t size = hidden / n;
    const bool split = k.rank() == 4;  // key and value already (B, N, L, H)
    if (split ? (v.rank() != 4 || k.dim(0) != batch || k.dim(1) != n || k.dim(3) != size ||
                 v.dim(0) != batch || v.dim(1) != n || v.dim(2) != k.dim(2))
              : (k.rank() != 3 || v.rank() != 3 || k.dim(0) != batch || k.dim(2) != hidden ||
                 v.dim(0) != batch || v.dim(1) != k.dim(1) || v.dim(2) % n != 0))
      bad("key " + shape_string(k.shape()) + " and value " + shape_string(v.shape()) +
          " do not fit query " + shape_string(q.shape()) + " with " + std::to_string(n) + " heads");
    const int64_t kv_seq = split ? k.dim(2) : k.dim(1);
    const int64_t v_size = split ? v.dim(3) : v.dim(2) / n;

    const Tensor* bias_in = io.has_input(kBias) ? &io.input(kBias) : nullptr;
    Tensor bias;
    if (bias_in) {
      if (split) bad("bias cannot be added to key and value given as (batch, heads, seq, size)");
      if (bias_in->shape() != Dims{2 * hidden + n * v_size})
        bad("bias must have shape (" + std::to_string(2 * hidden + n * v_size) + "), got " +
            shape_string(bias_in->shape()));
      bias = kernels::widen(*bias_in);
    }
    const float* bq = bias_in ? bias.data<float>() : nullptr;

    auto optional = [&](size_t i) { return io.has_input(i) ? &io.input(i) : nullptr; };
    if (split && io.has_input(kPastKey))
      bad("past_key cannot be used with key given as (batch, heads, seq, size)");
    const contrib::PastKV past_kv = contrib::read_past(
        optional(kPastKey), optional(kPastValue), batch, n, size, v_size, "MultiHeadAttention");
    const bool has_past = io.has_input(kPastKey);
    const int64_t past = past_kv.length;
    const int64_t total = past + kv_seq;

    // Q, K and V in heads-first layout, bias added, the past before the new keys.
    Tensor qh(ElemType::Float, Dims{batch, n, q_seq, size});
    contrib::to_heads(q.data<float>(), hidden, bq, batch, q_seq, n, size, qh.data<float>(), q_seq,
                      0);
    Tensor kh = k, vh = v;
    if (!split) {
      kh = Tensor(ElemType::Float, Dims{batch, n, total, size});
      vh = Tensor(ElemType::Float, Dims{batch, n, total, v_size});
      if (has_past) {
        contrib::copy_past(past_kv.key.data<float>(), batch, n, past, size, kh.data<float>(),
                           total);
        contrib::copy_past(past_kv.value.data<float>(), batch, n, past, v_size, vh.data<float>(),
                           total);
      }
      contrib::to_heads(k.data<float>(), hidden, bq ? bq + hidden : nullptr, batch, kv_seq, n, size,
                        kh.data<float>(), total, past);
      contrib::to_heads(v.data<float>(), n * v_size, bq ? bq + 2 * hidden : nullptr, batch, kv_seq,
                        n, v_size, vh.data<float>(), total, past);
    }

    contrib::AttentionProblem p = contrib::problem_of(qh, kh, vh, scale_);
    std::vector<float> mask;
    if (io.has_input(kPaddingMask)) {
      mask = contrib::mask_term(io.input(kPaddingMask), batch, q_seq, total, filter_, false,
                                "MultiHeadAttention");
      p.mask = mask.data();
    }
    Tensor attention_bias;
    if (io.has_input(kAttentionBias)) {
      attention_bias = kernels::widen(io.input(kAttentionBias));
      contrib::set_attention_bias(p, attention_bias, "MultiHeadAttention");
    }
    p.causal = causal_;
    p.past = past;
    const Tensor y = contrib::attend_to_new(p, io.pool());

    io.set_output(0, kernels::narrow_to(y, type));
    if (io.has_output(1)) io.set_output(1, kernels::narrow_to(kh, type));
    if (io.has_output(2)) io.set_output(2, kernels::narrow_to(vh, type));
  }

 private:
  int64_t heads_;
  float filter_;
  std::optional<float> scale_;
  bool causal_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t heads = ctx.attr_int("num_heads", 0);
  if (heads <= 0) ctx.invalid("num_heads must be positive");
  const auto& in = ctx.node.inputs;
  const auto& out = ctx.node.outputs;
  if ((in.size() > 8 && in[8]) || (in.size() > 9 && in[9]))
    ctx.invalid(
        "past_sequence_length (shared past/present buffers) and cache_indirection are "
        "not supported");
  if (out.size() > 3 && out[3]) ctx.invalid("the qk output is not supported");
  std::optional<float> scale;
  if (ctx.has_attr("scale")) scale = ctx.attr_float("scale", 1.0f);
  return std::make_unique<MultiHeadAttention>(heads, ctx.attr_float("mask_filter_value", -10000.0f),
                                              scale, ctx.attr_int("unidirectional", 0) != 0);
}

// output (B, S, Dv) or (B, S, N * Hv); present_key / present_value (B, N, P + L, H / Hv).
void infer(InferContext& ctx) {
  const int64_t n = ctx.attr_int("num_heads", 0);
  if (n <= 0) ctx.invalid("num_heads must be positive");
  const ir::Shape& q = ctx.input_shape(kQuery);
  if (q.rank_known && q.dims.size() != 3)
    ctx.invalid("query must be 3-D (packed QKV is not supported)");
  if (!ctx.has_input(kKey) || !ctx.has_input(kValue)) ctx.invalid("needs key and value");
  const ir::Shape& k = ctx.input_shape(kKey);
  const ir::Shape& v = ctx.input_shape(kValue);
  const bool known = q.rank_known && k.rank_known && v.rank_known;
  if (known && (k.dims.size() != v.dims.size() || k.dims.size() < 3 || k.dims.size() > 4))
    ctx.invalid("key and value must both be 3-D or both 4-D");
  const ElemType elem = ctx.input_elem(kQuery);
  if (!known) {
    for (size_t i = 0; i < ctx.num_outputs() && i < 3; ++i)
      ctx.set_output_tensor(i, elem, ir::Shape::unknown_rank());
    return;
  }
  const bool split = k.dims.size() == 4;
  const ir::Dim size = div_dim(ctx, q.dims[2], n, "the query hidden size by num_heads");
  const ir::Dim v_size =
      split ? v.dims[3] : div_dim(ctx, v.dims[2], n, "the value hidden size by num_heads");
  ir::Dim total = split ? k.dims[2] : k.dims[1];
  if (ctx.has_input(kPastKey)) {
    const ir::Shape& past = ctx.input_shape(kPastKey);
    total = past.rank_known && past.dims.size() == 4 ? add_dims(past.dims[2], total)
                                                     : ir::Dim::unknown();
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of({q.dims[0], q.dims[1], mul_dim(v_size, n)}));
  const ir::Dim heads = ir::Dim::known(n);
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(1, elem, ir::Shape::of({q.dims[0], heads, total, size}));
  if (ctx.num_outputs() > 2)
    ctx.set_output_tensor(2, elem, ir::Shape::of({q.dims[0], heads, total, v_size}));
}

constexpr SignatureText kRows[] = {
    {1,
     "query: T, key?: T, value?: T, bias?: T, key_padding_mask?: M, attention_bias?: T, "
     "past_key?: T, past_value?: T, past_sequence_length?: M, cache_indirection?: M -> "
     "output: T, present_key?: T, present_value?: T, qk?: QK; T = float float16 bfloat16, "
     "QK = float float16 bfloat16, M = int32; mask_filter_value: float = -10000.0, "
     "num_heads: int, scale: float?, unidirectional: int = 0"}};

}  // namespace multi_head_attention_op
}  // namespace

OpDef def_MsMultiHeadAttention() {
  using namespace multi_head_attention_op;
  return def_from_rows("com.microsoft", "MultiHeadAttention", make, infer, kRows);
}

}  // namespace bough::ops
