// The attention step com.microsoft's attention operators share (MultiHeadAttention now;
// Attention and GroupQueryAttention take the same shape): per head,
//   Y = softmax(scale * Q·Kᵀ + mask + attention_bias) · V,
// in float, with ONNX Runtime's masking rules: a padding mask is an additive term (ORT
// fills masked keys with mask_filter_value, -10000 by default, rather than -inf), while the
// causal rule removes key j for query i when j > past + i outright.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bough/tensor.h"
#include "util/thread_pool.h"

namespace bough::ops::contrib {

struct AttentionProblem {
  int64_t batch = 0, heads = 0, kv_heads = 0;  // query head h reads kv head h / (heads / kv_heads)
  int64_t q_seq = 0, total = 0;                // query rows, keys (past + new)
  int64_t head_size = 0, v_head_size = 0;
  const float* q = nullptr;  // (batch, heads, q_seq, head_size)
  const float* k = nullptr;  // (batch, kv_heads, total, head_size)
  const float* v = nullptr;  // (batch, kv_heads, total, v_head_size)
  // Additive (batch, q_seq, total) term, or null.
  const float* mask = nullptr;
  // attention_bias (batch or 1, heads or 1, q_seq, total), or null; strides 0 when broadcast.
  const float* bias = nullptr;
  int64_t bias_batch_stride = 0, bias_head_stride = 0;
  bool causal = false;
  int64_t past = 0;                         // the causal rule's offset
  const int64_t* past_per_batch = nullptr;  // per batch entry instead, when not null
  // Keys [keys_per_batch[b], total) are removed for entry b, when not null.
  const int64_t* keys_per_batch = nullptr;
  float scale = 1;
  float* y = nullptr;  // (batch, q_seq, heads * v_head_size)
};

void attend(const AttentionProblem& p, util::ThreadPool& pool);

// The problem over float q (batch, heads, q_seq, size), k (batch, kv_heads, total, size) and
// v (batch, kv_heads, total, v_size), heads-first and contiguous, scaled by `scale` or else
// 1 / sqrt(size); masks, bias and causality are the caller's to add.
AttentionProblem problem_of(const Tensor& q, const Tensor& k, const Tensor& v,
                            std::optional<float> scale);

// Runs p into a new Y (batch, q_seq, heads * v_head_size) and returns it.
Tensor attend_to_new(AttentionProblem& p, util::ThreadPool& pool);

// Points p at attention_bias a (float, (batch or 1, heads or 1, q_seq, total)), after
// checking its shape against p's dims.
void set_attention_bias(AttentionProblem& p, const Tensor& a, const char* op);

// The additive (batch, q_seq, total) term of an int32 mask as ONNX Runtime's CPU provider
// prepares it: key lengths (batch) masking keys j >= length; with `start_positions` also
// (2 * batch), the lengths then the first kept key of each batch; 0/1 flags (batch, total) or
// (batch, q_seq, total). Masked keys get `filter`. (The causal rule stays attend's, -inf
// whatever the mask's form: ONNX Runtime 1.30 gives a 3-D mask's future keys no weight even
// with a small mask_filter_value.) `op` names the operator in errors.
std::vector<float> mask_term(const Tensor& m, int64_t batch, int64_t q_seq, int64_t total,
                             float filter, bool start_positions, const char* op);

std::vector<float> mask_term(const Tensor& m, int64_t batch, int64_t q_seq, int64_t total,
                             int64_t past, float filter, bool start_positions, bool& causal,
                             const char* op);

// Writes src (batch, seq, heads * size; rows src_row floats apart, so a slice of packed QKV
// rows serves), plus bias (heads * size, or null) on every row, into dst (batch, heads,
// dst_seq, size) at sequence positions [offset, offset + seq).
void to_heads(const float* src, int64_t src_row, const float* bias, int64_t batch, int64_t seq,
              int64_t heads, int64_t size, float* dst, int64_t dst_seq, int64_t offset);

// past_key and past_value (both or neither, null for none) in float, checked to be (batch,
// heads, past, size) and (batch, heads, past, v_size) with one past length.
struct PastKV {
  Tensor key, value;
  int64_t length = 0;
};
PastKV read_past(const Tensor* key, const Tensor* value, int64_t batch, int64_t heads, int64_t size,
                 int64_t v_size, const char* op);

// Copies past (batch, heads, past_seq, size) into dst (batch, heads, dst_seq, size) at
// sequence positions [0, past_seq).
void copy_past(const float* past, int64_t batch, int64_t heads, int64_t past_seq, int64_t size,
               float* dst, int64_t dst_seq);

}  // namespace bough::ops::contrib
