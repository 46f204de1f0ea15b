// LSTM: gates i (input), o (output), f (forget), c (cell), stacked in that order in W, R and
// B; peepholes P in the order i, o, f:
//   it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + Wbi + Rbi),  ft likewise with Pf,
//   ct = g(Xt·Wcᵀ + Ht-1·Rcᵀ + Wbc + Rbc),  Ct = ft ⊙ Ct-1 + it ⊙ ct,
//   ot = f(Xt·Woᵀ + Ht-1·Roᵀ + Po ⊙ Ct + Wbo + Rbo),  Ht = ot ⊙ h(Ct).
// input_forget=1 couples the input gate to the forget gate: it = 1 - ft. Directions,
// sequence_lens and layout as in RNN (ops/onnx/recurrent.h).
#include <array>

#include "ops/onnx/recurrent.h"

namespace bough::ops {

namespace {
namespace lstm_op {

template <typename T>
void run_direction(const recurrent::Direction<T>& dir, bool input_forget, float clip,
                   util::ThreadPool& pool) {
  const recurrent::Inputs& in = dir.in;
  const int64_t B = in.batch, H = in.hidden, G = 4 * H;
  const std::vector<T>& rt = dir.weights.rt_head;
  const std::vector<T>& xw = dir.xw;
  const std::vector<T>& bias = dir.weights.summed;
  std::vector<T> peep(static_cast<size_t>(3 * H), T(0));
  if (in.p.defined()) std::copy_n(in.p.data<T>() + dir.walk.d * 3 * H, 3 * H, peep.begin());
  const T* pi = peep.data();
  const T* po = pi + H;
  const T* pf = po + H;
  const recurrent::Activation f = dir.act[0], g = dir.act[1], act_h = dir.act[2];
  T* h = dir.h;
  T* c = dir.c;
  std::vector<T> hr(static_cast<size_t>(B * G));
  // One batch entry's gates of a step, activated a whole gate at a time (a vectorized loop
  // per activation) rather than element by element.
  std::vector<T> gates(static_cast<size_t>(5 * H));
  T* fg = gates.data();
  T* ig = fg + H;
  T* cand = ig + H;
  T* og = cand + H;
  T* cell_act = og + H;
  const recurrent::Walk& walk = dir.walk;
  for (int64_t s = 0, n = walk.steps(); s < n; ++s) {
    recurrent::gemm(h, rt.data(), hr.data(), B, H, G, pool);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      if (t < 0) continue;
      const T* xr = xw.data() + (t * B + b) * G;
      const T* rr = hr.data() + b * G;
      T* cell = c + b * H;
      auto pre = [&](int gate, int64_t j) {
        return xr[gate * H + j] + rr[gate * H + j] + bias[gate * H + j];
      };
      for (int64_t j = 0; j < H; ++j) {
        fg[j] = recurrent::clipped(pre(2, j) + pf[j] * cell[j], clip);
        ig[j] = recurrent::clipped(pre(0, j) + pi[j] * cell[j], clip);
        cand[j] = recurrent::clipped(pre(3, j), clip);
      }
      f.apply(fg, H);
      if (input_forget) {
        for (int64_t j = 0; j < H; ++j) ig[j] = T(1) - fg[j];
      } else {
        f.apply(ig, H);
      }
      g.apply(cand, H);
      for (int64_t j = 0; j < H; ++j) {
        cell[j] = fg[j] * cell[j] + ig[j] * cand[j];
        og[j] = recurrent::clipped(pre(1, j) + po[j] * cell[j], clip);
        cell_act[j] = cell[j];
      }
      f.apply(og, H);
      act_h.apply(cell_act, H);
      for (int64_t j = 0; j < H; ++j) h[b * H + j] = og[j] * cell_act[j];
      dir.emit(t, b);
    }
  }
}

struct LstmCell {
  static constexpr const char* kName = "LSTM";
  static constexpr int kGates = 4;
  static constexpr std::array<const char*, 3> kActivations = {"Sigmoid", "Tanh", "Tanh"};

  explicit LstmCell(const BuildContext& ctx) : input_forget(ctx.attr_int("input_forget", 0) != 0) {}
  template <typename T>
  void operator()(const recurrent::Direction<T>& dir, float clip, util::ThreadPool& pool) const {
    run_direction(dir, input_forget, clip, pool);
  }

  bool input_forget;
};

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T, initial_c?: T, P?: T -> Y?: "
     "T, Y_h?: T, Y_c?: T; T = floats, T1 = int32; activation_alpha: floats?, activation_beta: "
     "floats?, activations: strings?, clip: float?, direction: string = forward, hidden_size: "
     "int?, input_forget: int = 0, output_sequence: int = 0"},
    {7,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T, initial_c?: T, P?: T -> Y?: "
     "T, Y_h?: T, Y_c?: T; T = floats, T1 = int32; activation_alpha: floats?, activation_beta: "
     "floats?, activations: strings?, clip: float?, direction: string = forward, hidden_size: "
     "int?, input_forget: int = 0"},
    {14,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T, initial_c?: T, P?: T -> Y?: "
     "T, Y_h?: T, Y_c?: T; T = floats, T1 = int32; activation_alpha: floats?, activation_beta: "
     "floats?, activations: strings?, clip: float?, direction: string = forward, hidden_size: "
     "int?, input_forget: int = 0, layout: int = 0"},
    {22,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T, initial_c?: T, P?: T -> Y?: "
     "T, Y_h?: T, Y_c?: T; T = floats bfloat16, T1 = int32; activation_alpha: floats?, "
     "activation_beta: floats?, activations: strings?, clip: float?, direction: string = "
     "forward, hidden_size: int?, input_forget: int = 0, layout: int = 0"}};

}  // namespace lstm_op
}  // namespace

OpDef def_LSTM() {
  using namespace lstm_op;
  return recurrent::recurrent_def<LstmCell>(kRows);
}

}  // namespace bough::ops
