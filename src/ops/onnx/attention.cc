// Attention: scaled dot-product attention, Y = softmax(softcap(Q·Kᵀ * scale) + bias) · V, per
// head. Q, K, V are 4-D (batch, heads, seq, head_size), or 3-D (batch, seq, heads * head_size)
// with q_num_heads / kv_num_heads set. Query head h reads key/value head h / (q_heads /
// kv_heads) (grouped-query attention). past_key / past_value (batch, kv_heads, past, size) are
// prepended to K and V; the results are the present_key / present_value outputs.
//
// The bias masks out (-inf) or shifts scores: attn_mask (bool: false masks; float: added)
// broadcasts to (batch, q_heads, q_seq, total) and masks the columns past its last one;
// is_causal masks key j for query i when j > i + offset, offset being the past length, else
// nonpad_kv_seqlen[b] - q_seq when that is given, else 0; nonpad_kv_seqlen (opset 24) masks
// keys j >= nonpad_kv_seqlen[b]. A row with every key masked gives zero weights.
//
// The optional qk_matmul_output holds the scores after the matmul (mode 0), the softcap (1),
// the bias (2) or the softmax (3). Everything runs in float, or double for double inputs,
// whatever softmax_precision asks (float16/bfloat16 inputs thus get at least float).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/float_type_attr.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "Attention " + message);
}

// Where the rows of an operand live: 4-D (batch, heads, seq, size), or packed 3-D
// (batch, seq, heads * size). A row's channels are contiguous either way.
struct HeadLayout {
  int64_t batch = 0, heads = 0, seq = 0, size = 0;
  bool packed = false;
  int64_t row(int64_t b, int64_t h, int64_t s) const {
    return (packed ? (b * seq + s) * heads + h : (b * heads + h) * seq + s) * size;
  }
};

HeadLayout head_layout(const Tensor& t, int64_t heads, const char* name) {
  if (t.rank() == 4) return {t.dim(0), t.dim(1), t.dim(2), t.dim(3), false};
  if (heads <= 0) bad("needs q_num_heads and kv_num_heads for 3-D inputs");
  if (t.dim(2) % heads != 0)
    bad(std::string(name) + " hidden size " + std::to_string(t.dim(2)) +
        " is not a multiple of its head count " + std::to_string(heads));
  return {t.dim(0), heads, t.dim(1), t.dim(2) / heads, true};
}

struct Options {
  int64_t q_heads = 0, kv_heads = 0;  // 0 when absent
  bool causal = false;
  int mode = 0;  // qk_matmul_output_mode
  std::optional<double> scale;
  double softcap = 0;
};

// attn_mask seen as (batch, q_heads, q_seq, cols): strides, 0 along broadcast dimensions.
struct MaskView {
  const void* data = nullptr;
  bool boolean = false;
  int64_t sb = 0, sh = 0, sq = 0, cols = 0;
};

MaskView mask_view(const Tensor& m, ElemType score_type, int64_t batch, int64_t heads,
                   int64_t q_seq, int64_t total) {
  if (m.type() != ElemType::Bool && m.type() != score_type)
    bad("attn_mask must be bool or the type of Q");
  if (m.rank() < 1 || m.rank() > 4)
    bad("attn_mask must have rank 1 to 4, got " + shape_string(m.shape()));
  Dims d{1, 1, 1, 1};
  for (size_t i = 0; i < m.rank(); ++i) d[4 - m.rank() + i] = m.dim(i);
  const int64_t want[3] = {batch, heads, q_seq};
  for (int k = 0; k < 3; ++k)
    if (d[k] != 1 && d[k] != want[k])
      bad("attn_mask of shape " + shape_string(m.shape()) + " does not broadcast to " +
          shape_string(Dims{batch, heads, q_seq, total}));
  if (d[3] > total)
    bad("attn_mask has " + std::to_string(d[3]) + " columns, more than the " +
        std::to_string(total) + " keys");
  MaskView v;
  v.data = m.raw();
  v.boolean = m.type() == ElemType::Bool;
  v.cols = d[3];
  v.sq = d[2] == 1 ? 0 : d[3];
  v.sh = d[1] == 1 ? 0 : d[2] * d[3];
  v.sb = d[0] == 1 ? 0 : d[1] * d[2] * d[3];
  return v;
}

// K or V with the past prepended: (batch, kv_heads, past + seq, size), contiguous.
Tensor with_past(const Tensor* past, const Tensor& cur, const HeadLayout& L) {
  const int64_t p = past ? past->dim(2) : 0, total = p + L.seq;
  if (!past && !L.packed) return cur;
  const size_t elem = elem_storage_bytes(cur.type(), 1);
  Tensor out(cur.type(), Dims{L.batch, L.heads, total, L.size});
  auto* dst = static_cast<uint8_t*>(out.raw());
  const auto* src = static_cast<const uint8_t*>(cur.raw());
  const auto* old = past ? static_cast<const uint8_t*>(past->raw()) : nullptr;
  const size_t row = static_cast<size_t>(L.size) * elem;
  for (int64_t b = 0; b < L.batch; ++b) {
    for (int64_t h = 0; h < L.heads; ++h) {
      uint8_t* head = dst + static_cast<size_t>((b * L.heads + h) * total) * row;
      if (p > 0)
        std::memcpy(head, old + static_cast<size_t>((b * L.heads + h) * p) * row,
                    static_cast<size_t>(p) * row);
      for (int64_t s = 0; s < L.seq; ++s)
        std::memcpy(head + static_cast<size_t>(p + s) * row,
                    src + static_cast<size_t>(L.row(b, h, s)) * elem, row);
    }
  }
  return out;
}

// Everything one row of the computation reads, in the compute type T.
template <typename T>
struct Problem {
  HeadLayout q, y;
  int64_t kv_heads = 0, total = 0, past = 0;
  bool has_past = false;
  const T* qd = nullptr;
  const T* kd = nullptr;  // present key (batch, kv_heads, total, q.size)
  const T* vd = nullptr;  // present value (batch, kv_heads, total, y.size)
  T* yd = nullptr;
  T* qk = nullptr;  // (batch, q_heads, q_seq, total), or null
  MaskView mask;
  const int64_t* nonpad = nullptr;  // (batch), or null
  bool causal = false;
  int mode = 0;
  T scale = 1, softcap = 0;
};

// Sets masked scores to -inf and adds a float mask.
template <typename T>
void apply_bias(const Problem<T>& p, int64_t b, int64_t h, int64_t i, T* s) {
  constexpr T kNegInf = -std::numeric_limits<T>::infinity();
  int64_t limit = p.total;  // keys [limit, total) are masked
  if (p.nonpad) limit = std::min(limit, std::max<int64_t>(p.nonpad[b], 0));
  if (p.causal) {
    const int64_t offset = p.has_past || !p.nonpad ? p.past : p.nonpad[b] - p.q.seq;
    limit = std::min(limit, std::max<int64_t>(i + offset + 1, 0));
  }
  if (p.mask.data) {
    const int64_t at = b * p.mask.sb + h * p.mask.sh + i * p.mask.sq;
    if (p.mask.boolean) {
      const bool* m = static_cast<const bool*>(p.mask.data) + at;
      for (int64_t j = 0; j < p.mask.cols; ++j)
        if (!m[j]) s[j] = kNegInf;
    } else {
      const T* m = static_cast<const T*>(p.mask.data) + at;
      for (int64_t j = 0; j < p.mask.cols; ++j) s[j] += m[j];
    }
    limit = std::min(limit, p.mask.cols);
  }
  for (int64_t j = limit; j < p.total; ++j) s[j] = kNegInf;
}

// Softmax in place; a row with no finite maximum (all keys masked) becomes zeros.
template <typename T>
void softmax_row(T* s, int64_t n) {
  T mx = -std::numeric_limits<T>::infinity();
  for (int64_t j = 0; j < n; ++j) mx = std::max(mx, s[j]);
  if (mx == -std::numeric_limits<T>::infinity()) {
    std::fill(s, s + n, T(0));
    return;
  }
  T sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    s[j] = std::exp(s[j] - mx);
    sum += s[j];
  }
  const T inv = T(1) / sum;
  for (int64_t j = 0; j < n; ++j) s[j] *= inv;
}

// One query row: scores into `s` (total elements of scratch), then Y's row.
template <typename T>
void attend_row(const Problem<T>& p, int64_t b, int64_t h, int64_t i, T* s) {
  const int64_t d = p.q.size, dv = p.y.size, n = p.total;
  const int64_t hk = h / (p.q.heads / p.kv_heads);
  const T* qr = p.qd + p.q.row(b, h, i);
  const T* keys = p.kd + (b * p.kv_heads + hk) * n * d;
  const T* values = p.vd + (b * p.kv_heads + hk) * n * dv;
  for (int64_t j = 0; j < n; ++j) {
    const T* kr = keys + j * d;
    T dot = 0;
    for (int64_t c = 0; c < d; ++c) dot += qr[c] * kr[c];
    s[j] = dot * p.scale;
  }
  if (p.softcap > 0)
    for (int64_t j = 0; j < n; ++j) s[j] = p.softcap * std::tanh(s[j] / p.softcap);
  T* qk = p.qk ? p.qk + ((b * p.q.heads + h) * p.q.seq + i) * n : nullptr;
  if (qk && p.mode <= 1) std::copy(s, s + n, qk);
  apply_bias(p, b, h, i, s);
  if (qk && p.mode == 2) std::copy(s, s + n, qk);
  softmax_row(s, n);
  if (qk && p.mode == 3) std::copy(s, s + n, qk);
  T* yr = p.yd + p.y.row(b, h, i);
  std::fill(yr, yr + dv, T(0));
  for (int64_t j = 0; j < n; ++j) {
    if (s[j] == T(0)) continue;
    const T w = s[j];
    const T* vr = values + j * dv;
    for (int64_t c = 0; c < dv; ++c) yr[c] += w * vr[c];
  }
}

// Runs every row, split into as many contiguous blocks as pay, each with its own scratch.
template <typename T>
void attend(const Problem<T>& p, util::ThreadPool& pool) {
  const int64_t rows = p.q.batch * p.q.heads * p.q.seq;
  if (rows == 0) return;
  const int64_t work = rows * std::max<int64_t>(1, p.total * (p.q.size + p.y.size));
  const int64_t blocks = std::min<int64_t>(pool.threads_for(work), rows);
  const int64_t width = std::max<int64_t>(1, p.total);
  Tensor scratch(std::is_same_v<T, double> ? ElemType::Double : ElemType::Float,
                 Dims{blocks, width});
  T* base = scratch.data<T>();
  pool.parallel_for(blocks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      T* s = base + c * width;
      for (int64_t r = rows * c / blocks; r < rows * (c + 1) / blocks; ++r)
        attend_row(p, r / (p.q.heads * p.q.seq), (r / p.q.seq) % p.q.heads, r % p.q.seq, s);
    }
  });
}

class Attention : public Kernel {
 public:
  explicit Attention(Options o) : o_(o) {}

  void run(KernelIO& io) override {
    const Tensor& q_in = io.input(0);
    const Tensor& k_in = io.input(1);
    const Tensor& v_in = io.input(2);
    const ElemType t = q_in.type();
    if (k_in.type() != t || v_in.type() != t) bad("Q, K and V must have one element type");
    if (q_in.rank() != k_in.rank() || q_in.rank() != v_in.rank() ||
        (q_in.rank() != 3 && q_in.rank() != 4))
      bad("Q, K and V must all be 3-D or all 4-D, got " + shape_string(q_in.shape()) + ", " +
          shape_string(k_in.shape()) + " and " + shape_string(v_in.shape()));
    const HeadLayout q = head_layout(q_in, o_.q_heads, "Q");
    const HeadLayout k = head_layout(k_in, o_.kv_heads, "K");
    const HeadLayout v = head_layout(v_in, o_.kv_heads, "V");
    if (k.batch != q.batch || v.batch != q.batch) bad("Q, K and V must have one batch size");
    if (v.heads != k.heads || v.seq != k.seq)
      bad("K and V must have the same heads and sequence length");
    if (k.size != q.size)
      bad("Q head size " + std::to_string(q.size) + " differs from K's " + std::to_string(k.size));
    if (k.heads <= 0 || q.heads % k.heads != 0)
      bad("q_num_heads " + std::to_string(q.heads) + " must be a multiple of kv_num_heads " +
          std::to_string(k.heads));
    const Tensor* past_k = io.has_input(4) ? &io.input(4) : nullptr;
    const Tensor* past_v = io.has_input(5) ? &io.input(5) : nullptr;
    if (!past_k != !past_v) bad("needs both past_key and past_value, or neither");
    int64_t past = 0;
    if (past_k) {
      past = past_k->rank() == 4 ? past_k->dim(2) : 0;
      if (past_k->type() != t || past_v->type() != t) bad("past_key/past_value must have Q's type");
      if (past_k->shape() != Dims{q.batch, k.heads, past, k.size} ||
          past_v->shape() != Dims{q.batch, k.heads, past, v.size})
        bad("past_key " + shape_string(past_k->shape()) + " / past_value " +
            shape_string(past_v->shape()) + " do not fit K and V");
    }
    const int64_t total = past + k.seq;
    std::vector<int64_t> nonpad;
    if (io.has_input(6)) {
      const Tensor& np = io.input(6);
      if (np.shape() != Dims{q.batch})
        bad("nonpad_kv_seqlen must have shape " + shape_string(Dims{q.batch}) + ", got " +
            shape_string(np.shape()));
      nonpad = kernels::read_ints(np, "nonpad_kv_seqlen");
    }

    const Tensor present_k = with_past(past_k, k_in, k);
    const Tensor present_v = with_past(past_v, v_in, v);
    const Tensor* mask = io.has_input(3) ? &io.input(3) : nullptr;
    const bool bool_mask = mask && mask->type() == ElemType::Bool;
    // Y, and the scores QKᵀ when they are wanted. A bool mask is used as it is, any other in
    // the compute type.
    auto attention = [&](const Tensor& qx, const Tensor& kx, const Tensor& vx,
                         const Tensor* score_mask) {
      const Tensor* m = bool_mask ? mask : score_mask;
      const ElemType ct = qx.type();
      Dims y_shape =
          q.packed ? Dims{q.batch, q.seq, q.heads * v.size} : Dims{q.batch, q.heads, q.seq, v.size};
      Tensor y(ct, y_shape);
      Tensor qk = io.has_output(3) ? Tensor(ct, Dims{q.batch, q.heads, q.seq, total}) : Tensor();
      kernels::visit_float(ct, "Attention", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Problem<T> p;
        p.q = q;
        p.y = {q.batch, q.heads, q.seq, v.size, q.packed};
        p.kv_heads = k.heads;
        p.total = total;
        p.past = past;
        p.has_past = past_k != nullptr;
        p.qd = qx.data<T>();
        p.kd = kx.data<T>();
        p.vd = vx.data<T>();
        p.yd = y.data<T>();
        p.qk = qk.defined() ? qk.data<T>() : nullptr;
        if (m) p.mask = mask_view(*m, ct, q.batch, q.heads, q.seq, total);
        p.nonpad = nonpad.empty() ? nullptr : nonpad.data();
        p.causal = o_.causal;
        p.mode = o_.mode;
        p.scale =
            static_cast<T>(o_.scale ? *o_.scale : 1.0 / std::sqrt(static_cast<double>(q.size)));
        p.softcap = static_cast<T>(o_.softcap);
        attend(p, io.pool());
      });
      return std::array<Tensor, 2>{y, qk};
    };
    auto [y, qk] =
        kernels::through_float(attention, q_in, present_k, present_v, bool_mask ? nullptr : mask);
    io.set_output(0, std::move(y));
    io.set_output(1, present_k);
    io.set_output(2, present_v);
    if (qk.defined()) io.set_output(3, std::move(qk));
  }

 private:
  Options o_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Options o;
  o.q_heads = ctx.attr_int("q_num_heads", 0);
  o.kv_heads = ctx.attr_int("kv_num_heads", 0);
  if (o.q_heads < 0 || o.kv_heads < 0) ctx.invalid("q_num_heads and kv_num_heads must be >= 0");
  o.causal = ctx.attr_int("is_causal", 0) != 0;
  const int64_t mode = ctx.attr_int("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3) ctx.invalid("qk_matmul_output_mode must be 0, 1, 2 or 3");
  o.mode = static_cast<int>(mode);
  if (ctx.has_attr("scale")) o.scale = ctx.attr_float("scale", 1.0f);
  o.softcap = ctx.attr_float("softcap", 0.0f);
  float_type_attr(ctx, "softmax_precision");  // checked only (see the top of this file)
  return std::make_unique<Attention>(o);
}

// Y (B, q_heads, q_seq, v_size), or (B, q_seq, q_heads * v_size) for a 3-D Q; present_key
// and present_value (B, kv_heads, past + kv_seq, size); qk_matmul_output (B, q_heads, q_seq,
// past + kv_seq).
void infer(InferContext& ctx) {
  const int64_t qh = ctx.attr_int("q_num_heads", 0), kvh = ctx.attr_int("kv_num_heads", 0);
  const HeadsView q = heads_view(ctx, 0, qh, "Q");
  const HeadsView k = heads_view(ctx, 1, kvh, "K");
  const HeadsView v = heads_view(ctx, 2, kvh, "V");
  if ((q.known && q.packed && qh <= 0) || (k.known && k.packed && kvh <= 0) ||
      (v.known && v.packed && kvh <= 0))
    ctx.invalid("3-D inputs need q_num_heads and kv_num_heads");
  if (q.known && k.known) same_dim(ctx, q.size, k.size, "the head sizes of Q and K");
  ir::Dim kv_heads = k.heads, total = k.seq;
  if (v.known) kv_heads = same_dim(ctx, kv_heads, v.heads, "the heads of K and V");
  if (ctx.has_input(4)) {
    const ir::Shape& past = ctx.input_shape(4);
    if (past.rank_known && past.dims.size() == 4)
      total = add_dims(past.dims[2], k.seq);
    else
      total = ir::Dim::unknown();
  }
  const ir::Dim v_size = v.known ? v.size : ir::Dim::unknown();
  ir::Shape y = ir::Shape::unknown_rank();
  if (q.known) {
    y = q.packed ? ir::Shape::of({q.batch, q.seq, mul_dim(v_size, qh)})
                 : ir::Shape::of({q.batch, q.heads, q.seq, v_size});
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), y);
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(
        1, ctx.input_elem(0),
        k.known ? ir::Shape::of({k.batch, kv_heads, total, k.size}) : ir::Shape::unknown_rank());
  if (ctx.num_outputs() > 2)
    ctx.set_output_tensor(
        2, ctx.input_elem(2),
        v.known ? ir::Shape::of({v.batch, kv_heads, total, v.size}) : ir::Shape::unknown_rank());
  if (ctx.num_outputs() > 3)
    ctx.set_output_tensor(
        3, ctx.input_elem(0),
        q.known ? ir::Shape::of({q.batch, q.heads, q.seq, total}) : ir::Shape::unknown_rank());
}

constexpr SignatureText kRows[] = {
    {23,
     "Q: T1, K: T1, V: T2, attn_mask?: U, past_key?: T1, past_value?: T2 -> Y: T1, "
     "present_key?: T1, present_value?: T2, qk_matmul_output?: T1; T1 = floats bfloat16, T2 = "
     "floats bfloat16, U = numeric bfloat16 bool; is_causal: int = 0, kv_num_heads: int?, "
     "q_num_heads: int?, qk_matmul_output_mode: int = 0, scale: float?, softcap: float = 0.0, "
     "softmax_precision: int?"},
    {24,
     "Q: T1, K: T1, V: T2, attn_mask?: U, past_key?: T1, past_value?: T2, nonpad_kv_seqlen?: "
     "tensor(int64) -> Y: T1, present_key?: T1, present_value?: T2, qk_matmul_output?: T1; T1 = "
     "floats bfloat16, T2 = floats bfloat16, U = numeric bfloat16 bool; is_causal: int = 0, "
     "kv_num_heads: int?, q_num_heads: int?, qk_matmul_output_mode: int = 0, scale: float?, "
     "softcap: float = 0.0, softmax_precision: int?"}};

}  // namespace attention_op
}  // namespace

OpDef def_Attention() {
  using namespace attention_op;
  return def_from_rows("", "Attention", make, infer, kRows);
}

}  // namespace bough::ops
