// RNN: the simple recurrence Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb), forward, reverse or both
// ways; sequence_lens ends each batch entry early (its Y rows stay zero, Y_h keeps its last
// state). Shared parts in ops/onnx/recurrent.h.
#include <array>

#include "ops/onnx/recurrent.h"

namespace bough::ops {

namespace {
namespace rnn_op {

template <typename T>
void run_direction(const recurrent::Direction<T>& dir, float clip, util::ThreadPool& pool) {
  const int64_t B = dir.in.batch, H = dir.in.hidden;
  const std::vector<T>& rt = dir.weights.rt_head;
  const std::vector<T>& bias = dir.weights.summed;
  const recurrent::Activation f = dir.act[0];
  T* h = dir.h;
  std::vector<T> hr(static_cast<size_t>(B * H));
  const recurrent::Walk& walk = dir.walk;
  for (int64_t s = 0, n = walk.steps(); s < n; ++s) {
    recurrent::gemm(h, rt.data(), hr.data(), B, H, H, pool);
    for (int64_t b = 0; b < B; ++b) {
      const int64_t t = walk.time(s, b);
      if (t < 0) continue;
      const T* xr = dir.xw.data() + (t * B + b) * H;
      for (int64_t j = 0; j < H; ++j)
        h[b * H + j] = f(recurrent::clipped(xr[j] + hr[b * H + j] + bias[j], clip));
      dir.emit(t, b);
    }
  }
}

struct RnnCell {
  static constexpr const char* kName = "RNN";
  static constexpr int kGates = 1;
  static constexpr std::array<const char*, 1> kActivations = {"Tanh"};

  explicit RnnCell(const BuildContext&) {}
  template <typename T>
  void operator()(const recurrent::Direction<T>& dir, float clip, util::ThreadPool& pool) const {
    run_direction(dir, clip, pool);
  }
};

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings = "
     "Tanh Tanh, clip: float?, direction: string = forward, hidden_size: int?, output_sequence: "
     "int = 0"},
    {7,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings = "
     "Tanh Tanh, clip: float?, direction: string = forward, hidden_size: int?"},
    {14,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats, "
     "T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: strings = "
     "Tanh Tanh, clip: float?, direction: string = forward, hidden_size: int?, layout: int = "
     "0"},
    {22,
     "X: T, W: T, R: T, B?: T, sequence_lens?: T1, initial_h?: T -> Y?: T, Y_h?: T; T = floats "
     "bfloat16, T1 = int32; activation_alpha: floats?, activation_beta: floats?, activations: "
     "strings = Tanh Tanh, clip: float?, direction: string = forward, hidden_size: int?, "
     "layout: int = 0"}};

}  // namespace rnn_op
}  // namespace

OpDef def_RNN() {
  using namespace rnn_op;
  return recurrent::recurrent_def<RnnCell>(kRows);
}

}  // namespace bough::ops
