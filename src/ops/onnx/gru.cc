// GRU: gates z (update), r (reset), h (hidden), stacked in that order in W, R and B:
//   zt = f(Xt·Wzᵀ + Ht-1·Rzᵀ + Wbz + Rbz), rt likewise,
//   ht = g(Xt·Whᵀ + (rt ⊙ Ht-1)·Rhᵀ + Rbh + Wbh)        (linear_before_reset = 0)
//   ht = g(Xt·Whᵀ + rt ⊙ (Ht-1·Rhᵀ + Rbh) + Wbh)        (linear_before_reset = 1)
//   Ht = (1 - zt) ⊙ ht + zt ⊙ Ht-1.
// Directions, sequence_lens and layout as in RNN (ops/onnx/recurrent.h).
#include <array>

#include "ops/onnx/recurrent.h"

namespace bough::ops {

namespace {
namespace gru_op {

template <typename T>
void run_direction(const recurrent::Direction<T>& dir, bool linear_before_reset, float clip,
                   util::ThreadPool& pool) {
  const int64_t B = dir.in.batch, H = dir.in.hidden, G = 3 * H;
  const std::vector<T>& rt_zr = dir.weights.rt_head;
  const std::vector<T>& rt_h = dir.weights.rt_tail;
  const std::vector<T>& xw = dir.xw;
  const std::vector<T>& wb = dir.weights.wb;
  const std::vector<T>& rb = dir.weights.rb;
  const recurrent::Activation f = dir.act[0], g = dir.act[1];
  T* h = dir.h;
  std::vector<T> hr_zr(static_cast<size_t>(B * 2 * H)), hr_h(static_cast<size_t>(B * H));
  std::vector<T> z(static_cast<size_t>(B * H)), rs(static_cast<size_t>(B * H));
  std::vector<T> reset_h(static_cast<size_t>(B * H));
  const recurrent::Walk& walk = dir.walk;
  for (int64_t s = 0, n = walk.steps(); s < n; ++s) {
    recurrent::gemm(h, rt_zr.data(), hr_zr.data(), B, H, 2 * H, pool);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      const T* xr = xw.data() + (std::max<int64_t>(t, 0) * B + b) * G;
      for (int64_t j = 0; j < H; ++j) {
        const int64_t k = b * H + j;
        if (t < 0) {
          z[k] = rs[k] = T(0);
          continue;
        }
        const T* hz = hr_zr.data() + b * 2 * H;
        z[k] = f(recurrent::clipped(xr[j] + hz[j] + wb[j] + rb[j], clip));
        rs[k] = f(recurrent::clipped(xr[H + j] + hz[H + j] + wb[H + j] + rb[H + j], clip));
      }
    }
    if (linear_before_reset) {
      recurrent::gemm(h, rt_h.data(), hr_h.data(), B, H, H, pool);
    } else {
      for (int64_t k = 0; k < B * H; ++k) reset_h[k] = rs[k] * h[k];
      recurrent::gemm(reset_h.data(), rt_h.data(), hr_h.data(), B, H, H, pool);
    }
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      if (t < 0) continue;
      const T* xr = xw.data() + (t * B + b) * G + 2 * H;
      for (int64_t j = 0; j < H; ++j) {
        const int64_t k = b * H + j;
        const T rec =
            linear_before_reset ? rs[k] * (hr_h[k] + rb[2 * H + j]) : hr_h[k] + rb[2 * H + j];
        const T cand = g(recurrent::clipped(xr[j] + rec + wb[2 * H + j], clip));
        h[k] = (T(1) - z[k]) * cand + z[k] * h[k];
      }
      dir.emit(t, b);
    }
  }
}

struct GruCell {
  static constexpr const char* kName = "GRU";
  static constexpr int kGates = 3;
  static constexpr std::array<const char*, 2> kActivations = {"Sigmoid", "Tanh"};

  explicit GruCell(const BuildContext& ctx)
      : linear_before_reset(ctx.attr_int("linear_before_reset", 0) != 0) {}
  template <typename T>
  void operator()(const recurrent::Direction<T>& dir, float clip, util::ThreadPool& pool) const {
    run_direction(dir, linear_before_reset, clip, pool);
  }

  bool linear_before_reset;
};

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings?, "
     "clip: float?, direction: string = foward, hidden_size: int?, output_sequence: int = 0"},
    {3,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings?, "
     "clip: float?, direction: string = forward, hidden_size: int?, linear_before_reset: int = "
     "0, output_sequence: int = 0"},
    {7,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings?, "
     "clip: float?, direction: string = forward, hidden_size: int?, linear_before_reset: int = "
     "0"},
    {14,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings?, "
     "clip: float?, direction: string = forward, hidden_size: int?, layout: int = 0, "
     "linear_before_reset: int = 0"},
    {22,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats "
     "bfloat16, T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: "
     "strings?, clip: float?, direction: string = forward, hidden_size: int?, layout: int = 0, "
     "linear_before_reset: int = 0"}};

}  // namespace gru_op
}  // namespace

OpDef def_GRU() {
  using namespace gru_op;
  return recurrent::recurrent_def<GruCell>(kRows);
}

}  // namespace bough::ops
