// LinearAttention: recurrent linear attention over packed (batch, seq, heads * size) query,
// key and value. Each key/value head keeps a state S (d_k x d_v), from past_state
// (batch, kv_heads, d_k, d_v) or zeros, updated per step t by `update_rule`:
//   linear:      S = S + k ⊗ v
//   gated:       S = exp(g) * S + k ⊗ v
//   delta:       S = S + k ⊗ β (v - Sᵀk)
//   gated_delta: S = exp(g) * S, then the delta update (the default)
// and each query head h reads o = scale * qᵀS from key/value head h / (q_heads / kv_heads).
// decay g is (batch, seq, kv_heads) or (batch, seq, kv_heads * d_k); beta is (batch, seq,
// kv_heads) or (batch, seq, 1). scale defaults to 1/sqrt(d_k). present_state is the final S,
// in past_state's type (the query's without it). The recurrence runs in float (double for
// double inputs).
#include <cmath>
#include <string>

#include "kernels/through_float.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace linear_attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "LinearAttention " + message);
}

enum class Rule { Linear, Gated, Delta, GatedDelta };

bool gated(Rule r) { return r == Rule::Gated || r == Rule::GatedDelta; }
bool delta(Rule r) { return r == Rule::Delta || r == Rule::GatedDelta; }

struct Sizes {
  int64_t batch = 0, seq = 0, q_heads = 0, kv_heads = 0, dk = 0, dv = 0;
  int64_t decay_width = 0;  // per step and kv head: 1 or dk
  int64_t beta_heads = 0;   // 1 or kv_heads
};

template <typename T>
struct Operands {
  const T* q = nullptr;
  const T* k = nullptr;
  const T* v = nullptr;
  const T* decay = nullptr;
  const T* beta = nullptr;
  T* state = nullptr;    // (batch, kv_heads, dk, dv), holding the past on entry
  T* out = nullptr;      // (batch, seq, q_heads * dv)
  T* scratch = nullptr;  // dv per (batch, kv head)
};

// The recurrence of one (batch, kv head) pair over every step.
template <typename T>
void run_head(const Operands<T>& a, const Sizes& z, Rule rule, T scale, int64_t b, int64_t hk) {
  const int64_t dk = z.dk, dv = z.dv, group = z.q_heads / z.kv_heads;
  T* s = a.state + (b * z.kv_heads + hk) * dk * dv;
  T* u = a.scratch + (b * z.kv_heads + hk) * dv;
  for (int64_t t = 0; t < z.seq; ++t) {
    const int64_t step = b * z.seq + t;
    const T* k = a.k + (step * z.kv_heads + hk) * dk;
    const T* v = a.v + (step * z.kv_heads + hk) * dv;
    if (gated(rule)) {
      const T* g = a.decay + (step * z.kv_heads + hk) * z.decay_width;
      for (int64_t i = 0; i < dk; ++i) {
        const T f = std::exp(g[z.decay_width == 1 ? 0 : i]);
        for (int64_t m = 0; m < dv; ++m) s[i * dv + m] *= f;
      }
    }
    std::copy(v, v + dv, u);
    if (delta(rule)) {
      const T beta = a.beta[step * z.beta_heads + (z.beta_heads == 1 ? 0 : hk)];
      for (int64_t i = 0; i < dk; ++i)
        for (int64_t m = 0; m < dv; ++m) u[m] -= s[i * dv + m] * k[i];
      for (int64_t m = 0; m < dv; ++m) u[m] *= beta;
    }
    for (int64_t i = 0; i < dk; ++i)
      for (int64_t m = 0; m < dv; ++m) s[i * dv + m] += k[i] * u[m];
    for (int64_t h = hk * group; h < (hk + 1) * group; ++h) {
      const T* q = a.q + (step * z.q_heads + h) * dk;
      T* o = a.out + (step * z.q_heads + h) * dv;
      std::fill(o, o + dv, T(0));
      for (int64_t i = 0; i < dk; ++i)
        for (int64_t m = 0; m < dv; ++m) o[m] += q[i] * s[i * dv + m];
      for (int64_t m = 0; m < dv; ++m) o[m] *= scale;
    }
  }
}

// The state the recurrence updates in place: past_state copied in the compute type, or zeros.
Tensor initial_state(const Tensor* past, ElemType ct, const Sizes& z) {
  if (!past) return Tensor::zeros(ct, Dims{z.batch, z.kv_heads, z.dk, z.dv});
  return past->type() == ct ? past->clone() : kernels::cast(*past, ct);
}

class LinearAttention : public Kernel {
 public:
  LinearAttention(Rule rule, int64_t q_heads, int64_t kv_heads, double scale)
      : rule_(rule), q_heads_(q_heads), kv_heads_(kv_heads), scale_(scale) {}

  void run(KernelIO& io) override {
    const Tensor& q_in = io.input(0);
    const Tensor& k_in = io.input(1);
    const Tensor& v_in = io.input(2);
    const Tensor* past = io.has_input(3) ? &io.input(3) : nullptr;
    const Tensor* decay = io.has_input(4) ? &io.input(4) : nullptr;
    const Tensor* beta = io.has_input(5) ? &io.input(5) : nullptr;
    const Sizes z = check(q_in, k_in, v_in, past, decay, beta);
    // The output; the final state, in the compute type, is left in `state`.
    Tensor state;
    auto attend = [&](const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* g,
                      const Tensor* b) {
      const ElemType ct = q.type();
      state = initial_state(past, ct, z);
      Tensor out(ct, Dims{z.batch, z.seq, z.q_heads * z.dv});
      Tensor scratch(ct, Dims{z.batch * z.kv_heads, z.dv});
      kernels::visit_float(ct, "LinearAttention", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Operands<T> a{q.data<T>(),
                      k.data<T>(),
                      v.data<T>(),
                      g ? g->data<T>() : nullptr,
                      b ? b->data<T>() : nullptr,
                      state.data<T>(),
                      out.data<T>(),
                      scratch.data<T>()};
        const T scale = static_cast<T>(scale_ != 0 ? scale_ : 1.0 / std::sqrt(double(z.dk)));
        const int64_t per =
            std::max<int64_t>(1, z.seq * z.dk * z.dv * (z.q_heads / z.kv_heads + 2));
        pool_run(io.pool(), z.batch * z.kv_heads, per,
                 [&](int64_t r) { run_head(a, z, rule_, scale, r / z.kv_heads, r % z.kv_heads); });
      });
      return out;
    };
    io.set_output(0, kernels::through_float(attend, q_in, k_in, v_in, decay, beta));
    const ElemType t = q_in.type();
    const ElemType st = past ? past->type() : t;

    io.set_output(1, state.type() == st ? state : kernels::cast(state, st));
  }

 private:
  template <typename F>
  static void pool_run(util::ThreadPool& pool, int64_t n, int64_t work, F f) {
    const int64_t grain = util::grain_for(work * kernels::kElementWork);
    pool.parallel_for(n, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t r = lo; r < hi; ++r) f(r);
    });
  }

  Sizes check(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* past,
              const Tensor* decay, const Tensor* beta) const {
    if (gated(rule_) != (decay != nullptr))
      bad(std::string("update_rule ") + (gated(rule_) ? "needs" : "takes no") + " decay input");
    if (delta(rule_) != (beta != nullptr))
      bad(std::string("update_rule ") + (delta(rule_) ? "needs" : "takes no") + " beta input");
    const ElemType t = q.type();
    if (k.type() != t || v.type() != t || (decay && decay->type() != t) ||
        (beta && beta->type() != t))
      bad("query, key, value, decay and beta must have one element type");
    if (!kernels::is_computed_float(t)) bad("needs float inputs");
    if (past && !is_float_type(past->type())) bad("past_state must be a float tensor");
    if (q.rank() != 3 || k.rank() != 3 || v.rank() != 3) bad("query, key and value must be 3-D");
    Sizes z;
    z.batch = q.dim(0);
    z.seq = q.dim(1);
    z.q_heads = q_heads_;
    z.kv_heads = kv_heads_;
    if (q.dim(2) % z.q_heads != 0) bad("query width is not a multiple of q_num_heads");
    z.dk = q.dim(2) / z.q_heads;
    if (v.dim(2) % z.kv_heads != 0) bad("value width is not a multiple of kv_num_heads");
    z.dv = v.dim(2) / z.kv_heads;
    if (k.shape() != Dims{z.batch, z.seq, z.kv_heads * z.dk} || v.dim(0) != z.batch ||
        v.dim(1) != z.seq)
      bad("key " + shape_string(k.shape()) + " / value " + shape_string(v.shape()) +
          " do not fit query " + shape_string(q.shape()));
    if (past && past->shape() != Dims{z.batch, z.kv_heads, z.dk, z.dv})
      bad("past_state must have shape " + shape_string(Dims{z.batch, z.kv_heads, z.dk, z.dv}) +
          ", got " + shape_string(past->shape()));
    if (decay) {
      const bool ok = decay->rank() == 3 && decay->dim(0) == z.batch && decay->dim(1) == z.seq &&
                      (decay->dim(2) == z.kv_heads || decay->dim(2) == z.kv_heads * z.dk);
      if (!ok) bad("decay of shape " + shape_string(decay->shape()) + " does not fit");
      z.decay_width = decay->dim(2) == z.kv_heads ? 1 : z.dk;
    }
    if (beta) {
      const bool ok = beta->rank() == 3 && beta->dim(0) == z.batch && beta->dim(1) == z.seq &&
                      (beta->dim(2) == z.kv_heads || beta->dim(2) == 1);
      if (!ok) bad("beta of shape " + shape_string(beta->shape()) + " does not fit");
      z.beta_heads = beta->dim(2);
    }
    return z;
  }

  Rule rule_;
  int64_t q_heads_, kv_heads_;
  double scale_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const Rule rule = attr_choice<Rule>(ctx, "update_rule", "gated_delta",
                                      {{"linear", Rule::Linear},
                                       {"gated", Rule::Gated},
                                       {"delta", Rule::Delta},
                                       {"gated_delta", Rule::GatedDelta}});
  const int64_t q_heads = ctx.attr_int("q_num_heads", 0),
                kv_heads = ctx.attr_int("kv_num_heads", 0);
  if (q_heads <= 0 || kv_heads <= 0 || q_heads % kv_heads != 0)
    ctx.invalid("q_num_heads must be a positive multiple of a positive kv_num_heads");
  return std::make_unique<LinearAttention>(rule, q_heads, kv_heads, ctx.attr_float("scale", 0.0f));
}

// Y (B, T, q_heads * d_v) in the query's type; present_state (B, kv_heads, d_k, d_v) in
// past_state's type, else the query's. d_k and d_v unpack K's and V's hidden sizes.
void infer(InferContext& ctx) {
  const int64_t qh = ctx.attr_int("q_num_heads", 0), kvh = ctx.attr_int("kv_num_heads", 0);
  if (qh <= 0 || kvh <= 0) ctx.invalid("q_num_heads and kv_num_heads must be positive");
  if (qh % kvh != 0) ctx.invalid("q_num_heads must be a multiple of kv_num_heads");
  const ir::Shape& q = ctx.input_shape(0);
  for (size_t i = 0; i < 3; ++i) {
    const ir::Shape& s = ctx.input_shape(i);
    if (s.rank_known && s.dims.size() != 3)
      ctx.invalid("query, key and value must be 3-D, not rank " + std::to_string(s.dims.size()));
  }
  const HeadsView k = heads_view(ctx, 1, kvh, "key");
  const HeadsView v = heads_view(ctx, 2, kvh, "value");
  const ir::Dim dv = v.known ? v.size : ir::Dim::unknown();
  ir::Dim batch = q.rank_known ? q.dims[0] : (k.known ? k.batch : ir::Dim::unknown());
  ir::Dim seq = q.rank_known ? q.dims[1] : ir::Dim::unknown();
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of({batch, seq, mul_dim(dv, qh)}));
  const ElemType st = ctx.has_input(3) ? ctx.input_elem(3) : ctx.input_elem(0);
  ctx.set_output_tensor(
      1, st,
      ir::Shape::of({batch, ir::Dim::known(kvh), k.known ? k.size : ir::Dim::unknown(), dv}));
}

constexpr SignatureText kRows[] = {
    {27,
     "query: T, key: T, value: T, past_state?: S, decay?: T, beta?: T -> output: T, "
     "present_state: S; T = float float16 bfloat16, S = float float16 bfloat16; chunk_size: "
     "int = 64, kv_num_heads: int, q_num_heads: int, scale: float = 0.0, update_rule: string "
     "= gated_delta"}};

}  // namespace linear_attention_op
}  // namespace

OpDef def_LinearAttention() {
  using namespace linear_attention_op;
  return def_from_rows("", "LinearAttention", make, infer, kRows);
}

}  // namespace bough::ops
