// RNN: the simple recurrence Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb), forward, reverse or both
// ways; sequence_lens ends each batch entry early (its Y rows stay zero, Y_h keeps its last
// state). Shared parts in ops/onnx/recurrent.h.
#include "kernels/dispatch.h"
#include "ops/onnx/recurrent.h"

namespace bough::ops {

namespace {

using recurrent::Config;
using recurrent::Inputs;
using recurrent::Walk;

template <typename T>
void run_direction(const Inputs& in, const Config& cfg, int d, recurrent::States& st,
                   util::ThreadPool& pool) {
  const int64_t B = in.batch, I = in.input, H = in.hidden;
  const std::vector<T> wt = recurrent::transposed_rows(in.w.data<T>() + d * H * I, 0, H, I);
  const std::vector<T> rt = recurrent::transposed_rows(in.r.data<T>() + d * H * H, 0, H, H);
  std::vector<T> xw(static_cast<size_t>(in.seq * B * H));
  recurrent::gemm(in.x.data<T>(), wt.data(), xw.data(), in.seq * B, I, H, pool);
  std::vector<T> bias(static_cast<size_t>(H), T(0));
  if (in.b.defined()) {
    const T* b = in.b.data<T>() + d * 2 * H;
    for (int64_t j = 0; j < H; ++j) bias[j] = b[j] + b[H + j];
  }
  const recurrent::Activation f = cfg.acts[static_cast<size_t>(d)];
  T* h = st.yh.data<T>() + d * B * H;
  T* y = st.y.defined() ? st.y.data<T>() : nullptr;
  std::vector<T> hr(static_cast<size_t>(B * H));
  const Walk walk(in, cfg, d);
  for (int64_t s = 0, n = walk.steps(); s < n; ++s) {
    recurrent::gemm(h, rt.data(), hr.data(), B, H, H, pool);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      if (t < 0) continue;
      const T* xr = xw.data() + (t * B + b) * H;
      for (int64_t j = 0; j < H; ++j)
        h[b * H + j] = f(recurrent::clipped(xr[j] + hr[b * H + j] + bias[j], cfg.clip));
      if (y) std::copy_n(h + b * H, H, y + walk.y_offset(t, b));
    }
  }
}

class Rnn : public Kernel {
 public:
  explicit Rnn(Config cfg) : cfg_(std::move(cfg)) {}

  void run(KernelIO& io) override {
    const Inputs in = recurrent::read_inputs(io, cfg_, 1, "RNN");
    recurrent::States st = recurrent::start_states(io, in, false);
    kernels::visit_float(in.x.type(), "RNN", [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int d = 0; d < cfg_.dirs; ++d) run_direction<T>(in, cfg_, d, st, io.pool());
    });
    recurrent::write_outputs(io, cfg_, in.type, st.y, st.yh, nullptr);
  }

 private:
  Config cfg_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Rnn>(recurrent::read_config(ctx, {"Tanh"}));
}

}  // namespace

const OpDef& def_RNN() {
  static const OpDef def{"", "RNN", {1, 7, 14, 22}, 3, 6, 0, 2, make};
  return def;
}

}  // namespace bough::ops
