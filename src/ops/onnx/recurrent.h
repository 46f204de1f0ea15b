// What RNN, GRU and LSTM share: the attributes (direction, activations with their
// alpha/beta, clip, layout, hidden_size), reading and checking the inputs in time-major
// layout, what each direction starts from, and writing the outputs back in the requested
// layout.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "kernels/dispatch.h"
#include "ops/kernel.h"
#include "ops/registry.h"

namespace bough::ops::recurrent {

// One activation function of a gate, with its alpha and beta.
struct Activation {
  enum class Kind {
    Relu,
    Tanh,
    Sigmoid,
    Affine,
    LeakyRelu,
    ThresholdedRelu,
    ScaledTanh,
    HardSigmoid,
    Elu,
    Softsign,
    Softplus
  };
  Kind kind = Kind::Tanh;
  float alpha = 0, beta = 0;

  template <typename T>
  T operator()(T x) const {
    const T a = static_cast<T>(alpha), b = static_cast<T>(beta);
    switch (kind) {
      case Kind::Relu:
        return x > 0 ? x : T(0);
      case Kind::Tanh:
        return std::tanh(x);
      case Kind::Sigmoid:
        return T(1) / (T(1) + std::exp(-x));
      case Kind::Affine:
        return a * x + b;
      case Kind::LeakyRelu:
        return x >= 0 ? x : a * x;
      case Kind::ThresholdedRelu:
        return x > a ? x : T(0);
      case Kind::ScaledTanh:
        return a * std::tanh(b * x);
      case Kind::HardSigmoid:
        return std::min(T(1), std::max(T(0), a * x + b));
      case Kind::Elu:
        return x >= 0 ? x : a * (std::exp(x) - T(1));
      case Kind::Softsign:
        return x / (T(1) + std::abs(x));
      case Kind::Softplus:
        return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
    return x;
  }
};

struct Config {
  int dirs = 1;                  // 2 when bidirectional
  bool reverse_only = false;     // direction == "reverse"
  int64_t hidden = 0;            // hidden_size, 0 when absent (taken from R)
  std::vector<Activation> acts;  // per_direction activations for each direction, in order
  int per_direction = 1;
  float clip = 0;            // 0: no clipping
  bool batch_first = false;  // layout == 1
};

// Reads the shared attributes; `defaults` are the activations of one direction.
Config read_config(const BuildContext& ctx, std::initializer_list<const char*> defaults);

// The inputs in the compute type (float for float16/bfloat16) and time-major layout; absent
// optional inputs are undefined tensors. `gates` is the number of stacked gate blocks in W.
struct Inputs {
  ElemType type = ElemType::Undefined;  // the inputs' element type
  Tensor x;                             // [seq, batch, input]
  Tensor w, r, b;             // [dirs, gates*hidden, input|hidden], [dirs, 2*gates*hidden]
  Tensor h0, c0, p;           // [dirs, batch, hidden], P: [dirs, 3*hidden]
  std::vector<int64_t> lens;  // per batch entry, in [0, seq]
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
};
Inputs read_inputs(KernelIO& io, const Config& cfg, int gates, const char* name);

// Y [seq, dirs, batch, hidden] (zeros; undefined when the output is not wanted), and the
// states [dirs, batch, hidden] to run in place: Y_h from initial_h, Y_c from initial_c (when
// `cell`), zeros when absent. All in the compute type.
struct States {
  Tensor y, yh, yc;
};
States start_states(const KernelIO& io, const Inputs& in, bool cell);

// Where direction d of a run stands: which time index a batch entry reads at a step, and
// where its row of Y is.
struct Walk {
  const Inputs& in;
  int64_t d, dirs;
  bool reverse;
  Walk(const Inputs& in, const Config& cfg, int d)
      : in(in), d(d), dirs(cfg.dirs), reverse(d == 1 || cfg.reverse_only) {}
  int64_t steps() const {
    int64_t n = 0;
    for (int64_t l : in.lens) n = std::max(n, l);
    return n;
  }
  // The time index batch entry b reads at step s, or -1 once its sequence has ended.
  int64_t time(int64_t s, int64_t b) const {
    const int64_t len = in.lens[static_cast<size_t>(b)];
    if (s >= len) return -1;
    return reverse ? len - 1 - s : s;
  }
  // Offset of Y[t, d, b, :].
  int64_t y_offset(int64_t t, int64_t b) const {
    return ((t * dirs + d) * in.batch + b) * in.hidden;
  }
};

// Direction d of a run, as all three operators start it (T is the compute type): X projected
// through the direction's W for every step at once, the direction's part of R, B and the
// activations, and its rows of the states, which the run updates in place.
template <typename T>
struct Direction {
  // `gates` as for read_inputs.
  Direction(const Inputs& in, const Config& cfg, States& st, int d, int gates,
            util::ThreadPool& pool);

  const Inputs& in;
  Walk walk;
  int64_t gate_rows;      // G = gates * hidden: the rows of W and R, the width of Wb and Rb
  std::vector<T> xw;      // X·Wᵀ, [seq * batch, G]
  const T* r;             // R, [G, hidden]
  const T* b;             // B, [2 * G] (Wb, then Rb); null when absent
  const Activation* act;  // the direction's cfg.per_direction activations, in order
  T* h;                   // Y_h, [batch, hidden]
  T* c;                   // Y_c, [batch, hidden]; null without a cell state
  T* y;                   // Y (all directions); null when not wanted

  // Rows [row0, row0 + rows) of R, transposed (hidden x rows), for Ht-1·Rᵀ as a gemm.
  std::vector<T> r_transposed(int64_t row0, int64_t rows) const;
  // Wb (half 0) or Rb (half 1), G values; zeros without B.
  std::vector<T> bias(int half) const;
  // Wb + Rb, G values; zeros without B.
  std::vector<T> summed_bias() const;
  // Copies batch entry b's hidden state into Y at time t, when Y is wanted.
  void emit(int64_t t, int64_t b) const {
    if (y) std::copy_n(h + b * in.hidden, in.hidden, y + walk.y_offset(t, b));
  }
};

// Sets Y [seq, dirs, batch, hidden] and the final states [dirs, batch, hidden] (Y_h, and
// Y_c for LSTM when given), converted to `type` and to the batch-first layout when asked.
void write_outputs(KernelIO& io, const Config& cfg, ElemType type, const Tensor& y,
                   const Tensor& yh, const Tensor* yc);

// A whole run: reads the inputs, starts the states, calls run_direction(Direction<T>) for each
// direction in the compute type T, and writes the outputs. `gates` as for read_inputs; LSTM's
// 4 also carries the cell state.
template <typename RunDirection>
void run(KernelIO& io, const Config& cfg, int gates, const char* name,
         RunDirection&& run_direction) {
  const Inputs in = read_inputs(io, cfg, gates, name);
  const bool cell = gates == 4;
  States st = start_states(io, in, cell);
  kernels::visit_float(in.x.type(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int d = 0; d < cfg.dirs; ++d)
      run_direction(Direction<T>(in, cfg, st, d, gates, io.pool()));
  });
  write_outputs(io, cfg, in.type, st.y, st.yh, cell ? &st.yc : nullptr);
}

// c (m x n) = a (m x k) · b (k x n), row-major.
template <typename T>
void gemm(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n, util::ThreadPool& pool);

// Rows [row0, row0 + rows) of the row-major matrix w (cols wide), transposed: cols x rows.
template <typename T>
std::vector<T> transposed_rows(const T* w, int64_t row0, int64_t rows, int64_t cols);

// x clipped to [-clip, clip] when clip > 0.
template <typename T>
T clipped(T x, float clip) {
  if (clip <= 0) return x;
  const T c = static_cast<T>(clip);
  return x < -c ? -c : (x > c ? c : x);
}

// Output types of RNN (gates 1), GRU (3) and LSTM (4): Y (seq, dirs, batch, hidden), Y_h
// and Y_c (dirs, batch, hidden), batch first with layout 1 ((batch, seq, dirs, hidden) and
// (batch, dirs, hidden)); hidden from hidden_size or W (dirs, gates * hidden, input).
void infer(InferContext& ctx, int gates);

}  // namespace bough::ops::recurrent
