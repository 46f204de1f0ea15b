// LSTM: gates i (input), o (output), f (forget), c (cell), stacked in that order in W, R and
// B; peepholes P in the order i, o, f:
//   it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + Wbi + Rbi),  ft likewise with Pf,
//   ct = g(Xt·Wcᵀ + Ht-1·Rcᵀ + Wbc + Rbc),  Ct = ft ⊙ Ct-1 + it ⊙ ct,
//   ot = f(Xt·Woᵀ + Ht-1·Roᵀ + Po ⊙ Ct + Wbo + Rbo),  Ht = ot ⊙ h(Ct).
// input_forget=1 couples the input gate to the forget gate: it = 1 - ft. Directions,
// sequence_lens and layout as in RNN (ops/onnx/recurrent.h).
#include "kernels/dispatch.h"
#include "ops/onnx/recurrent.h"

namespace bough::ops {

namespace {

using recurrent::Config;
using recurrent::Inputs;
using recurrent::Walk;

template <typename T>
void run_direction(const Inputs& in, const Config& cfg, bool input_forget, int d,
                   recurrent::States& st, util::ThreadPool& pool) {
  const int64_t B = in.batch, I = in.input, H = in.hidden, G = 4 * H;
  const std::vector<T> wt = recurrent::transposed_rows(in.w.data<T>() + d * G * I, 0, G, I);
  const std::vector<T> rt = recurrent::transposed_rows(in.r.data<T>() + d * G * H, 0, G, H);
  std::vector<T> xw(static_cast<size_t>(in.seq * B * G));
  recurrent::gemm(in.x.data<T>(), wt.data(), xw.data(), in.seq * B, I, G, pool);
  std::vector<T> bias(static_cast<size_t>(G), T(0));
  if (in.b.defined()) {
    const T* b = in.b.data<T>() + d * 2 * G;
    for (int64_t j = 0; j < G; ++j) bias[j] = b[j] + b[G + j];
  }
  std::vector<T> peep(static_cast<size_t>(3 * H), T(0));
  if (in.p.defined()) std::copy_n(in.p.data<T>() + d * 3 * H, 3 * H, peep.begin());
  const T* pi = peep.data();
  const T* po = pi + H;
  const T* pf = po + H;
  const recurrent::Activation f = cfg.acts[static_cast<size_t>(3 * d)];
  const recurrent::Activation g = cfg.acts[static_cast<size_t>(3 * d + 1)];
  const recurrent::Activation act_h = cfg.acts[static_cast<size_t>(3 * d + 2)];
  T* h = st.yh.data<T>() + d * B * H;
  T* c = st.yc.data<T>() + d * B * H;
  T* y = st.y.defined() ? st.y.data<T>() : nullptr;
  std::vector<T> hr(static_cast<size_t>(B * G));
  const Walk walk(in, cfg, d);
  const float clip = cfg.clip;
  for (int64_t s = 0, n = walk.steps(); s < n; ++s) {
    recurrent::gemm(h, rt.data(), hr.data(), B, H, G, pool);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      if (t < 0) continue;
      const T* xr = xw.data() + (t * B + b) * G;
      const T* rr = hr.data() + b * G;
      auto pre = [&](int gate, int64_t j) {
        return xr[gate * H + j] + rr[gate * H + j] + bias[gate * H + j];
      };
      for (int64_t j = 0; j < H; ++j) {
        T& cell = c[b * H + j];
        const T fg = f(recurrent::clipped(pre(2, j) + pf[j] * cell, clip));
        const T ig =
            input_forget ? T(1) - fg : f(recurrent::clipped(pre(0, j) + pi[j] * cell, clip));
        const T cand = g(recurrent::clipped(pre(3, j), clip));
        cell = fg * cell + ig * cand;
        const T og = f(recurrent::clipped(pre(1, j) + po[j] * cell, clip));
        h[b * H + j] = og * act_h(cell);
      }
      if (y) std::copy_n(h + b * H, H, y + walk.y_offset(t, b));
    }
  }
}

class Lstm : public Kernel {
 public:
  Lstm(Config cfg, bool input_forget) : cfg_(std::move(cfg)), input_forget_(input_forget) {}

  void run(KernelIO& io) override {
    const Inputs in = recurrent::read_inputs(io, cfg_, 4, "LSTM");
    recurrent::States st = recurrent::start_states(io, in, true);
    kernels::visit_float(in.x.type(), "LSTM", [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int d = 0; d < cfg_.dirs; ++d)
        run_direction<T>(in, cfg_, input_forget_, d, st, io.pool());
    });
    recurrent::write_outputs(io, cfg_, in.type, st.y, st.yh, &st.yc);
  }

 private:
  Config cfg_;
  bool input_forget_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Lstm>(recurrent::read_config(ctx, {"Sigmoid", "Tanh", "Tanh"}),
                                ctx.attr_int("input_forget", 0) != 0);
}

}  // namespace

const OpDef& def_LSTM() {
  static const OpDef def{"", "LSTM", {1, 7, 14, 22}, 3, 8, 0, 3, make};
  return def;
}

}  // namespace bough::ops
