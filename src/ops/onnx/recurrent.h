// What RNN, GRU and LSTM share: the attributes (direction, activations with their
// alpha/beta, clip, layout, hidden_size), reading and checking the inputs in time-major
// layout, what each direction starts from, and writing the outputs back in the requested
// layout.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/dispatch.h"
#include "kernels/fast_math.h"
#include "kernels/fast_math_maps.h"
#include "ops/def_from_rows.h"
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
        return kernels::fast_tanh(x);
      case Kind::Sigmoid:
        return kernels::fast_sigmoid(x);
      case Kind::Affine:
        return a * x + b;
      case Kind::LeakyRelu:
        return x >= 0 ? x : a * x;
      case Kind::ThresholdedRelu:
        return x > a ? x : T(0);
      case Kind::ScaledTanh:
        return a * kernels::fast_tanh(b * x);
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

  // x[i] = (*this)(x[i]) for i < n, with the kind chosen once so that the common
  // activations run as a vectorized loop (libm's scalar tanhf and expf dominated LSTM).
  template <typename T>
  void apply(T* x, int64_t n) const {
    if (kind == Kind::Tanh || kind == Kind::Sigmoid) {
      const kernels::FastFn fn =
          kind == Kind::Tanh ? kernels::FastFn::Tanh : kernels::FastFn::Sigmoid;
      if constexpr (std::is_same_v<T, float>)
        kernels::fast_map(fn, x, x, n);  // the loop compiled for the CPU's vector target
      else
        for (int64_t i = 0; i < n; ++i) x[i] = kernels::fast_apply(fn, x[i]);
      return;
    }
    for (int64_t i = 0; i < n; ++i) x[i] = (*this)(x[i]);
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
Config read_config(const BuildContext& ctx, std::span<const char* const> defaults);

// The inputs in the compute type (float for float16/bfloat16) and time-major layout; absent
// optional inputs are undefined tensors. `gates` is the number of stacked gate blocks in W.
struct Inputs {
  ElemType type = ElemType::Undefined;  // the inputs' element type
  Tensor x;                             // [seq, batch, input]
  Tensor w, r, b;    // [dirs, gates*hidden, input|hidden], [dirs, 2*gates*hidden]; undefined
                     // when prepared
  Tensor h0, c0, p;  // [dirs, batch, hidden], P: [dirs, 3*hidden]
  std::vector<int64_t> lens;  // per batch entry, in [0, seq]
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
};

// One direction's weights as the recurrence uses them, in the compute type T: W and R
// transposed into the layout of their GEMMs, the biases apart and pre-summed.
template <typename T>
struct Weights {
  std::vector<T> wt;              // Wᵀ, [input, G]
  std::vector<T> rt_head;         // rows [0, split) of R, transposed: [hidden, split]
  std::vector<T> rt_tail;         // rows [split, G) of R, transposed; empty when split == G
  std::vector<T> wb, rb, summed;  // Wb, Rb and Wb + Rb, G values each; zeros without B
};

// Where R is split: GRU (3 gates) multiplies Ht-1 by its candidate gate's rows Rh apart (by
// the reset gate), so those rows form the tail; RNN and LSTM use R whole.
inline int64_t r_split(int gates, int64_t hidden) { return (gates == 3 ? 2 : gates) * hidden; }

// Direction d's Weights from W [dirs, G, input], R [dirs, G, hidden] and B [dirs, 2G]
// (undefined when absent), all in T.
template <typename T>
Weights<T> direction_weights(const Tensor& w, const Tensor& r, const Tensor& b, int d, int gates);

// Every direction's Weights, made once at plan time when W, R and B (or its absence) are
// constant: the kernel then reads neither them nor their originals on a run.
struct PreparedWeights {
  ElemType type = ElemType::Undefined;  // W's element type, which X must have
  Dims w_shape;                         // W's shape, which X's input size must fit
  int64_t hidden = 0;
  std::vector<Weights<float>> f32;   // for float, float16 and bfloat16
  std::vector<Weights<double>> f64;  // for double
  template <typename T>
  const std::vector<Weights<T>>& of() const {
    if constexpr (std::is_same_v<T, double>)
      return f64;
    else
      return f32;
  }
};

// The prepared weights when W, R and B (if given) are constant inputs of valid shapes and
// types, else null (the kernel then reads them on every run, which reports what is wrong).
std::unique_ptr<const PreparedWeights> prepare(const BuildContext& ctx, const Config& cfg,
                                               int gates);

// With `prepared`, W, R and B are not read (in.w, in.r, in.b stay undefined): X is checked
// against the prepared weights instead.
Inputs read_inputs(KernelIO& io, const Config& cfg, int gates, const char* name,
                   const PreparedWeights* prepared);

// Y [seq, dirs, batch, hidden] (zeros; undefined when the output is not wanted), and the
// states [dirs, batch, hidden] to run in place: Y_h from initial_h, Y_c from initial_c (when
// `cell`), zeros when absent. All in the compute type.
struct States {
  Tensor y, yh, yc;
};
States start_states(const KernelIO& io, const Inputs& in, const Config& cfg, bool cell);

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
// through the direction's W for every step at once, the direction's weights and
// activations, and its rows of the states, which the run updates in place.
template <typename T>
struct Direction {
  // `weights` must outlive the Direction.
  Direction(const Inputs& in, const Config& cfg, States& st, int d, const Weights<T>& weights,
            util::ThreadPool& pool);

  const Inputs& in;
  Walk walk;
  const Weights<T>& weights;
  int64_t gate_rows;      // G = gates * hidden: the rows of W and R, the width of Wb and Rb
  std::vector<T> xw;      // X·Wᵀ, [seq * batch, G]
  const Activation* act;  // the direction's cfg.per_direction activations, in order
  T* h;                   // Y_h, [batch, hidden]
  T* c;                   // Y_c, [batch, hidden]; null without a cell state
  T* y;                   // Y (all directions); null when not wanted

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
// 4 also carries the cell state. The weights are `prepared`'s, or made from the inputs.
template <typename RunDirection>
void run(KernelIO& io, const Config& cfg, int gates, const char* name,
         const PreparedWeights* prepared, RunDirection&& run_direction) {
  const Inputs in = read_inputs(io, cfg, gates, name, prepared);
  const bool cell = gates == 4;
  States st = start_states(io, in, cfg, cell);
  kernels::visit_float(in.x.type(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int d = 0; d < cfg.dirs; ++d) {
      if (prepared) {
        run_direction(
            Direction<T>(in, cfg, st, d, prepared->of<T>()[static_cast<size_t>(d)], io.pool()));
      } else {
        const Weights<T> weights = direction_weights<T>(in.w, in.r, in.b, d, gates);
        run_direction(Direction<T>(in, cfg, st, d, weights, io.pool()));
      }
    }
  });
  write_outputs(io, cfg, in.type, st.y, st.yh, cell ? &st.yc : nullptr);
}

// c (m x n) = a (m x k) · b (k x n), row-major.
template <typename T>
void gemm(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n, util::ThreadPool& pool);

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

// The kernel of RNN, GRU and LSTM. Cell names the operator (kName), its gate blocks (kGates)
// and the activations of one direction by default (kActivations); constructed from the node,
// it reads the attributes of its own, and cell(dir, clip, pool) runs one Direction<T>.
template <typename Cell>
class RecurrentKernel : public Kernel {
 public:
  explicit RecurrentKernel(const BuildContext& ctx)
      : cfg_(read_config(ctx, Cell::kActivations)),
        cell_(ctx),
        prepared_(prepare(ctx, cfg_, Cell::kGates)) {}

  void run(KernelIO& io) override {
    recurrent::run(io, cfg_, Cell::kGates, Cell::kName, prepared_.get(),
                   [&](const auto& dir) { cell_(dir, cfg_.clip, io.pool()); });
  }

 private:
  Config cfg_;
  Cell cell_;
  std::unique_ptr<const PreparedWeights> prepared_;  // null: read on every run
};

template <typename Cell>
std::unique_ptr<Kernel> make_recurrent(const BuildContext& ctx) {
  return std::make_unique<RecurrentKernel<Cell>>(ctx);
}
template <typename Cell>
void infer_recurrent(InferContext& ctx) {
  infer(ctx, Cell::kGates);
}

// The definition of RNN, GRU or LSTM from its schema rows.
template <typename Cell>
OpDef recurrent_def(std::span<const SignatureText> rows) {
  return def_from_rows("", Cell::kName, make_recurrent<Cell>, infer_recurrent<Cell>, rows);
}

}  // namespace bough::ops::recurrent
