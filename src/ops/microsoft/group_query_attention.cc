// com.microsoft GroupQueryAttention-1: causal attention with fewer key/value heads than query
// heads (query head h reads kv head h / (num_heads / kv_num_heads)) and a KV cache.
// query (B, S, N * H) with key and value (B, S, kvN * H), or packed QKV (B, S, (N + 2 kvN) H)
// with key and value omitted. seqlens_k (B) is each entry's total length - 1; the scalar
// total_sequence_length the batch's largest total. A prompt (S == total_sequence_length)
// starts at position 0 (entries shorter than S are right-padded); otherwise entry b's new
// tokens sit at positions seqlens_k[b] + 1 - S onwards, after that many positions of
// past_key / past_value (B, kvN, P, H). present_key / present_value are (B, kvN,
// max(P, total_sequence_length), H): the past positions each entry uses, then its new keys,
// zeros beyond. Query i of entry b sees keys [0, min(past_b + i, seqlens_k[b])] (a padded
// prompt's padding rows thus see only the real keys, as in ONNX Runtime). attention_bias
// (B or 1, N or 1, S, total) is added to the scaled scores. do_rotary rotates the new query
// and key rows by cos_cache / sin_cache (positions, head size / 2) at their positions.
//
// Without a past, total_sequence_length must be S. Refused: position_ids, local_window_size,
// softcap, smooth_softmax and head_sink, qk_output, causal = 0, quantized caches, the Q/K
// norm weights.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/microsoft/attention_core.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace group_query_attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "GroupQueryAttention: " + message);
}

enum Input {
  kQuery,
  kKey,
  kValue,
  kPastKey,
  kPastValue,
  kSeqlensK,
  kTotalLength,
  kCosCache,
  kAttentionBias = 10,
};

class GroupQueryAttention : public Kernel {
 public:
  GroupQueryAttention(int64_t heads, int64_t kv_heads, std::optional<float> scale, bool rotary,
                      bool interleaved)
      : heads_(heads),
        kv_heads_(kv_heads),
        scale_(scale),
        rotary_(rotary),
        interleaved_(interleaved) {}

  void run(KernelIO& io) override {
    const ElemType type = io.input(kQuery).type();
    for (int i : {kKey, kValue, kPastKey, kPastValue, kAttentionBias})
      if (io.has_input(i) && io.input(i).type() != type)
        bad("every float input must have the query's element type");
    const Tensor q = kernels::widen(io.input(kQuery));
    const int64_t n = heads_, kvn = kv_heads_;
    if (q.rank() != 3)
      bad("query must be (batch, sequence, hidden), got " + shape_string(q.shape()));
    const int64_t batch = q.dim(0), seq = q.dim(1);
    const bool packed = !io.has_input(kKey);
    if (packed == io.has_input(kValue)) bad("needs key and value, or neither (packed QKV)");
    const int64_t size = q.dim(2) / (packed ? n + 2 * kvn : n);
    Tensor k, v;
    if (!packed) {
      k = kernels::widen(io.input(kKey));
      v = kernels::widen(io.input(kValue));
    }
    if (size * (packed ? n + 2 * kvn : n) != q.dim(2) ||
        (!packed && (k.shape() != Dims{batch, seq, kvn * size} || v.shape() != k.shape())))
      bad("query " + shape_string(q.shape()) +
          (packed ? ""
                  : ", key " + shape_string(k.shape()) + " and value " + shape_string(v.shape())) +
          " do not fit " + std::to_string(n) + " query and " + std::to_string(kvn) + " kv heads");

    const std::vector<int64_t> seqlens = kernels::read_ints(io.input(kSeqlensK), "seqlens_k");
    const std::vector<int64_t> total_in =
        kernels::read_ints(io.input(kTotalLength), "total_sequence_length");
    if (static_cast<int64_t>(seqlens.size()) != batch || total_in.size() != 1)
      bad("seqlens_k must hold one length per batch entry and total_sequence_length one value");
    const int64_t total_len = total_in[0];
    auto optional = [&](size_t i) { return io.has_input(i) ? &io.input(i) : nullptr; };
    const contrib::PastKV past_kv = contrib::read_past(
        optional(kPastKey), optional(kPastValue), batch, kvn, size, size, "GroupQueryAttention");
    const bool has_past = io.has_input(kPastKey);
    const int64_t past_cap = past_kv.length;
    if (!has_past && total_len != seq)
      bad("without past_key, total_sequence_length " + std::to_string(total_len) +
          " must be the sequence length " + std::to_string(seq));
    const int64_t present_len = std::max(past_cap, total_len);
    const bool prompt = seq == total_len;
    std::vector<int64_t> past(static_cast<size_t>(batch)), keys(static_cast<size_t>(batch));
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t used = prompt ? 0 : seqlens[b] + 1 - seq;
      if (seqlens[b] + 1 > total_len || used < 0 || used > past_cap || used + seq > present_len)
        bad("seqlens_k[" + std::to_string(b) + "] = " + std::to_string(seqlens[b]) +
            " does not fit " + std::to_string(seq) + " new tokens, total_sequence_length " +
            std::to_string(total_len) + " and a past of " + std::to_string(past_cap));
      past[static_cast<size_t>(b)] = used;
      keys[static_cast<size_t>(b)] = seqlens[b] + 1;
    }

    // Q in heads-first layout; present = each entry's past, then its new keys, zeros after.
    const float* qd = q.data<float>();
    const int64_t row = q.dim(2);
    Tensor qh(ElemType::Float, Dims{batch, n, seq, size});
    contrib::to_heads(qd, row, nullptr, batch, seq, n, size, qh.data<float>(), seq, 0);
    Tensor kh = Tensor::zeros(ElemType::Float, Dims{batch, kvn, present_len, size});
    Tensor vh = Tensor::zeros(ElemType::Float, Dims{batch, kvn, present_len, size});
    const float* kd = packed ? qd + n * size : k.data<float>();
    const float* vd = packed ? qd + (n + kvn) * size : v.data<float>();
    const int64_t kv_row = packed ? row : kvn * size;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t pb = past[static_cast<size_t>(b)];
      for (int64_t h = 0; h < kvn; ++h) {
        const int64_t block = (b * kvn + h) * present_len * size;
        if (pb > 0) {
          const int64_t from = (b * kvn + h) * past_cap * size;
          std::copy(past_kv.key.data<float>() + from, past_kv.key.data<float>() + from + pb * size,
                    kh.data<float>() + block);
          std::copy(past_kv.value.data<float>() + from,
                    past_kv.value.data<float>() + from + pb * size, vh.data<float>() + block);
        }
      }
      contrib::to_heads(kd + b * seq * kv_row, kv_row, nullptr, 1, seq, kvn, size,
                        kh.data<float>() + b * kvn * present_len * size, present_len, pb);
      contrib::to_heads(vd + b * seq * kv_row, kv_row, nullptr, 1, seq, kvn, size,
                        vh.data<float>() + b * kvn * present_len * size, present_len, pb);
    }

    if (rotary_) rotate(io, qh, kh, past);

    contrib::AttentionProblem p = contrib::problem_of(qh, kh, vh, scale_);
    Tensor attention_bias;
    if (io.has_input(kAttentionBias)) {
      attention_bias = kernels::widen(io.input(kAttentionBias));
      contrib::set_attention_bias(p, attention_bias, "GroupQueryAttention");
    }
    p.causal = true;
    p.past_per_batch = past.data();
    p.keys_per_batch = keys.data();
    const Tensor y = contrib::attend_to_new(p, io.pool());
    io.set_output(0, kernels::narrow_to(y, type));
    if (io.has_output(1)) io.set_output(1, kernels::narrow_to(kh, type));
    if (io.has_output(2)) io.set_output(2, kernels::narrow_to(vh, type));
  }

 private:
  // do_rotary: the new query and key rows of entry b, token s, rotated by the angles of
  // position past_b + s, pairing dims (i, i + half) or, interleaved, (2i, 2i + 1), as
  // RotaryEmbedding does, over the whole head (ONNX Runtime's CPU kernel refuses a partial
  // rotary dim here).
  void rotate(KernelIO& io, Tensor& qh, Tensor& kh, const std::vector<int64_t>& past) const {
    const Tensor cos = kernels::widen(io.input(kCosCache));
    const Tensor sin = kernels::widen(io.input(kCosCache + 1));
    const int64_t batch = qh.dim(0), seq = qh.dim(2), size = qh.dim(3), total = kh.dim(2);
    if (cos.rank() != 2 || sin.shape() != cos.shape() || 2 * cos.dim(1) != size)
      bad("cos_cache and sin_cache must be (positions, head size / 2) of one shape");
    const int64_t half = cos.dim(1);
    auto turn = [&](float* x, int64_t pos) {
      const float* c = cos.data<float>() + pos * half;
      const float* sn = sin.data<float>() + pos * half;
      for (int64_t i = 0; i < half; ++i) {
        const int64_t a = interleaved_ ? 2 * i : i, o = interleaved_ ? 2 * i + 1 : i + half;
        const float xa = x[a], xo = x[o];
        x[a] = xa * c[i] - xo * sn[i];
        x[o] = xo * c[i] + xa * sn[i];
      }
    };
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t t = 0; t < seq; ++t) {
        const int64_t pos = past[static_cast<size_t>(b)] + t;
        if (pos >= cos.dim(0))
          bad("position " + std::to_string(pos) + " is outside the caches' " +
              std::to_string(cos.dim(0)) + " positions");
        for (int64_t h = 0; h < heads_; ++h)
          turn(qh.data<float>() + ((b * heads_ + h) * seq + t) * size, pos);
        for (int64_t h = 0; h < kv_heads_; ++h)
          turn(kh.data<float>() + ((b * kv_heads_ + h) * total + pos) * size, pos);
      }
  }

  int64_t heads_, kv_heads_;
  std::optional<float> scale_;
  bool rotary_, interleaved_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t heads = ctx.attr_int("num_heads", 0), kv_heads = ctx.attr_int("kv_num_heads", 0);
  if (heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0)
    ctx.invalid("num_heads must be a positive multiple of kv_num_heads");
  if (ctx.attr_int("local_window_size", -1) != -1)
    ctx.invalid("local_window_size is not supported");
  if (ctx.attr_float("softcap", 0.0f) != 0.0f) ctx.invalid("softcap is not supported");
  if (ctx.attr_int("smooth_softmax", 0) != 0) ctx.invalid("smooth_softmax is not supported");
  if (ctx.attr_int("qk_output", 0) != 0) ctx.invalid("qk_output is not supported");
  if (ctx.attr_int("causal", 1) != 1)
    ctx.invalid("only causal attention (causal = 1) is supported");
  if (ctx.attr_int("sliding_window_cache", 0) != 0)
    ctx.invalid("sliding_window_cache is not supported");
  for (const char* q : {"k_quant_type", "v_quant_type"})
    if (ctx.attr_string(q, "NONE") != "NONE") ctx.invalid("quantized KV caches are not supported");
  const auto& in = ctx.node.inputs;
  const bool rotary = ctx.attr_int("do_rotary", 0) != 0;
  auto given = [&](size_t i) { return i < in.size() && in[i] != nullptr; };
  if (rotary != given(kCosCache) || rotary != given(kCosCache + 1))
    ctx.invalid("do_rotary needs cos_cache and sin_cache, and they need do_rotary");
  for (size_t i = kCosCache + 2; i < in.size(); ++i)
    if (in[i] && i != kAttentionBias)
      ctx.invalid("position_ids, head_sink, KV scales and norm weights are not supported");
  const auto& out = ctx.node.outputs;
  if (out.size() > 3 && out[3]) ctx.invalid("the output_qk output is not supported");
  std::optional<float> scale;
  if (ctx.has_attr("scale") && ctx.attr_float("scale", 0.0f) != 0.0f)
    scale = ctx.attr_float("scale", 1.0f);
  return std::make_unique<GroupQueryAttention>(heads, kv_heads, scale, rotary,
                                               ctx.attr_int("rotary_interleaved", 0) != 0);
}

// output (B, S, N * H); present (B, kvN, length, H): S without a past, else max(P,
// total_sequence_length) when both are known before running.
void infer(InferContext& ctx) {
  const int64_t n = ctx.attr_int("num_heads", 0), kvn = ctx.attr_int("kv_num_heads", 0);
  if (n <= 0 || kvn <= 0 || n % kvn != 0)
    ctx.invalid("num_heads must be a positive multiple of kv_num_heads");
  const ir::Shape& q = ctx.input_shape(kQuery);
  const ElemType elem = ctx.input_elem(kQuery);
  if (!q.rank_known) {
    for (size_t i = 0; i < ctx.num_outputs(); ++i)
      ctx.set_output_tensor(i, elem, ir::Shape::unknown_rank());
    return;
  }
  if (q.dims.size() != 3) ctx.invalid("query must be 3-D");
  const bool packed = !ctx.has_input(kKey);
  const ir::Dim size =
      div_dim(ctx, q.dims[2], packed ? n + 2 * kvn : n, "the query width by its heads");
  ctx.set_output_tensor(0, elem, ir::Shape::of({q.dims[0], q.dims[1], mul_dim(size, n)}));
  ir::Dim length = q.dims[1];
  if (ctx.has_input(kPastKey)) {
    length = ir::Dim::unknown();
    const ir::Shape& past = ctx.input_shape(kPastKey);
    const Tensor* total = ctx.input_value(kTotalLength);
    if (total && total->type() == ElemType::Int32 && total->numel() == 1 && past.rank_known &&
        past.dims.size() == 4 && past.dims[2].is_known())
      length = ir::Dim::known(std::max<int64_t>(past.dims[2].value, total->data<int32_t>()[0]));
  }
  for (size_t i = 1; i < 3 && i < ctx.num_outputs(); ++i)
    ctx.set_output_tensor(i, elem, ir::Shape::of({q.dims[0], ir::Dim::known(kvn), length, size}));
}

constexpr SignatureText kRows[] = {
    {1,
     "query: T, key?: T, value?: T, past_key?: T_CACHE, past_value?: T_CACHE, seqlens_k: M, "
     "total_sequence_length: M, cos_cache?: T, sin_cache?: T, position_ids?: tensor(int64), "
     "attention_bias?: T, head_sink?: T, k_scale?: T_KV_SCALE, v_scale?: T_KV_SCALE, "
     "q_norm_weight?: T, k_norm_weight?: T -> output: T, present_key?: T_CACHE, "
     "present_value?: T_CACHE, output_qk?: T; T = float float16 bfloat16, T_CACHE = float "
     "float16 bfloat16 uint8 int8 float8e4m3fn, T_KV_SCALE = float, M = int32; causal: int = "
     "1, do_rotary: int = 0, k_quant_type: string = NONE, kv_cache_bit_width: int = 0, "
     "kv_num_heads: int, local_window_size: int = -1, num_heads: int, qk_norm_epsilon: float "
     "= 1e-6, qk_output: int = 0, rotary_interleaved: int = 0, scale: float?, "
     "sliding_window_cache: int = 0, smooth_softmax: int = 0, softcap: float = 0.0, "
     "v_quant_type: string = NONE"}};

}  // namespace group_query_attention_op
}  // namespace

OpDef def_MsGroupQueryAttention() {
  using namespace group_query_attention_op;
  return def_from_rows("com.microsoft", "GroupQueryAttention", make, infer, kRows);
}

}  // namespace bough::ops
