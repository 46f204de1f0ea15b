#include "ops/microsoft/attention_core.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "kernels/through_float.h"

namespace bough::ops::contrib {

namespace {
namespace attention_core_op {

// One query row (b, h, i): scores into s (p.total floats of scratch), then Y's row.
void attend_row(const AttentionProblem& p, int64_t b, int64_t h, int64_t i, float* s) {
  const int64_t d = p.head_size, dv = p.v_head_size, n = p.total;
  const int64_t hk = h / (p.heads / p.kv_heads);
  const float* qr = p.q + ((b * p.heads + h) * p.q_seq + i) * d;
  const float* keys = p.k + (b * p.kv_heads + hk) * n * d;
  const float* values = p.v + (b * p.kv_heads + hk) * n * dv;
  // Keys past `visible` are removed by the causal rule and the entry's key count.
  const int64_t past = p.past_per_batch ? p.past_per_batch[b] : p.past;
  const int64_t kept = p.keys_per_batch ? std::clamp<int64_t>(p.keys_per_batch[b], 0, n) : n;
  const int64_t visible = p.causal ? std::clamp<int64_t>(past + i + 1, 0, kept) : kept;
  for (int64_t j = 0; j < visible; ++j) {
    const float* kr = keys + j * d;
    float dot = 0;
    for (int64_t c = 0; c < d; ++c) dot += qr[c] * kr[c];
    s[j] = dot * p.scale;
  }
  if (p.mask) {
    const float* m = p.mask + (b * p.q_seq + i) * n;
    for (int64_t j = 0; j < visible; ++j) s[j] += m[j];
  }
  if (p.bias) {
    const float* a = p.bias + b * p.bias_batch_stride + h * p.bias_head_stride + i * n;
    for (int64_t j = 0; j < visible; ++j) s[j] += a[j];
  }
  float mx = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < visible; ++j) mx = std::max(mx, s[j]);
  float sum = 0;
  for (int64_t j = 0; j < visible; ++j) {
    s[j] = std::exp(s[j] - mx);
    sum += s[j];
  }
  const float inv = visible > 0 ? 1.0f / sum : 0.0f;
  float* yr = p.y + ((b * p.q_seq + i) * p.heads + h) * dv;
  std::fill(yr, yr + dv, 0.0f);
  for (int64_t j = 0; j < visible; ++j) {
    const float w = s[j] * inv;
    const float* vr = values + j * dv;
    for (int64_t c = 0; c < dv; ++c) yr[c] += w * vr[c];
  }
}

[[noreturn]] void bad(const char* op, const std::string& message) {
  fail(ErrorKind::BadInput, "", std::string(op) + ": " + message);
}

}  // namespace attention_core_op
}  // namespace

AttentionProblem problem_of(const Tensor& q, const Tensor& k, const Tensor& v,
                            std::optional<float> scale) {
  AttentionProblem p;
  p.batch = q.dim(0);
  p.heads = q.dim(1);
  p.q_seq = q.dim(2);
  p.head_size = q.dim(3);
  p.kv_heads = k.dim(1);
  p.total = k.dim(2);
  p.v_head_size = v.dim(3);
  p.q = q.data<float>();
  p.k = k.data<float>();
  p.v = v.data<float>();
  p.scale = scale ? *scale : static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.head_size)));
  return p;
}

Tensor attend_to_new(AttentionProblem& p, util::ThreadPool& pool) {
  Tensor y(ElemType::Float, Dims{p.batch, p.q_seq, p.heads * p.v_head_size});
  p.y = y.data<float>();
  attend(p, pool);
  return y;
}

void set_attention_bias(AttentionProblem& p, const Tensor& a, const char* op) {
  using namespace attention_core_op;
  if (a.rank() != 4 || (a.dim(0) != 1 && a.dim(0) != p.batch) ||
      (a.dim(1) != 1 && a.dim(1) != p.heads) || a.dim(2) != p.q_seq || a.dim(3) != p.total)
    bad(op, "attention_bias of shape " + shape_string(a.shape()) + " is not (" +
                std::to_string(p.batch) + " or 1, " + std::to_string(p.heads) + " or 1, " +
                std::to_string(p.q_seq) + ", " + std::to_string(p.total) + ")");
  p.bias = a.data<float>();
  p.bias_head_stride = a.dim(1) == 1 ? 0 : p.q_seq * p.total;
  p.bias_batch_stride = a.dim(0) == 1 ? 0 : a.dim(1) * p.q_seq * p.total;
}

std::vector<float> mask_term(const Tensor& m, int64_t batch, int64_t q_seq, int64_t total,
                             float filter, bool start_positions, const char* op) {
  using namespace attention_core_op;
  if (m.type() != ElemType::Int32) bad(op, "the mask must be int32");
  const int32_t* v = m.data<int32_t>();
  std::vector<float> out(static_cast<size_t>(batch * q_seq * total), 0.0f);
  float* o = out.data();
  auto row = [&](int64_t b, int64_t s) { return o + (b * q_seq + s) * total; };
  if (m.shape() == Dims{batch} || (start_positions && m.shape() == Dims{2 * batch})) {
    const bool with_start = m.dim(0) == 2 * batch && batch > 0;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t end = std::clamp<int64_t>(v[b], 0, total);
      const int64_t start = with_start ? std::clamp<int64_t>(v[batch + b], 0, total) : 0;
      for (int64_t s = 0; s < q_seq; ++s) {
        std::fill(row(b, s), row(b, s) + start, filter);
        std::fill(row(b, s) + end, row(b, s) + total, filter);
      }
    }
  } else if (m.shape() == Dims{batch, total}) {
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t s = 0; s < q_seq; ++s)
        for (int64_t j = 0; j < total; ++j)
          if (v[b * total + j] <= 0) row(b, s)[j] = filter;
  } else if (m.shape() == Dims{batch, q_seq, total}) {
    for (size_t i = 0; i < out.size(); ++i)
      if (v[i] <= 0) out[i] = filter;
  } else {
    const std::string b = std::to_string(batch), t = std::to_string(total);
    bad(op, "mask of shape " + shape_string(m.shape()) + " is none of (" + b + ")" +
                (start_positions ? ", (" + std::to_string(2 * batch) + ")" : "") + ", (" + b +
                ", " + t + ") and (" + b + ", " + std::to_string(q_seq) + ", " + t + ")");
  }
  return out;
}

void attend(const AttentionProblem& p, util::ThreadPool& pool) {
  using namespace attention_core_op;
  const int64_t rows = p.batch * p.heads * p.q_seq;
  if (rows == 0) return;
  const int64_t row_work = std::max<int64_t>(1, p.total * (p.head_size + p.v_head_size));
  pool.parallel_for(rows, util::grain_for(row_work), [&](int64_t lo, int64_t hi) {
    std::vector<float> scratch(static_cast<size_t>(std::max<int64_t>(1, p.total)));
    for (int64_t r = lo; r < hi; ++r)
      attend_row(p, r / (p.heads * p.q_seq), (r / p.q_seq) % p.heads, r % p.q_seq, scratch.data());
  });
}

void to_heads(const float* src, int64_t src_row, const float* bias, int64_t batch, int64_t seq,
              int64_t heads, int64_t size, float* dst, int64_t dst_seq, int64_t offset) {
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t s = 0; s < seq; ++s)
      for (int64_t h = 0; h < heads; ++h) {
        const float* in = src + (b * seq + s) * src_row + h * size;
        const float* add = bias ? bias + h * size : nullptr;
        float* out = dst + ((b * heads + h) * dst_seq + offset + s) * size;
        for (int64_t c = 0; c < size; ++c) out[c] = add ? in[c] + add[c] : in[c];
      }
}

PastKV read_past(const Tensor* key, const Tensor* value, int64_t batch, int64_t heads, int64_t size,
                 int64_t v_size, const char* op) {
  using namespace attention_core_op;
  if ((key == nullptr) != (value == nullptr))
    bad(op, "needs both past_key and past_value, or neither");
  if (!key) return {};
  PastKV past{kernels::widen(*key), kernels::widen(*value), key->rank() == 4 ? key->dim(2) : -1};
  if (past.key.shape() != Dims{batch, heads, past.length, size} ||
      past.value.shape() != Dims{batch, heads, past.length, v_size})
    bad(op, "past_key " + shape_string(key->shape()) + " / past_value " +
                shape_string(value->shape()) + " do not fit (" + std::to_string(batch) + ", " +
                std::to_string(heads) + ", past, " + std::to_string(size) + ")");
  return past;
}

void copy_past(const float* past, int64_t batch, int64_t heads, int64_t past_seq, int64_t size,
               float* dst, int64_t dst_seq) {
  for (int64_t bh = 0; bh < batch * heads; ++bh)
    std::copy(past + bh * past_seq * size, past + (bh + 1) * past_seq * size,
              dst + bh * dst_seq * size);
}

}  // namespace bough::ops::contrib
