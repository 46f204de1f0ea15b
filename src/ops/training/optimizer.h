// What the optimizers of ai.onnx.preview.training (Adagrad, Adam, Momentum) share. Each
// takes a learning rate R and an update count T (scalars), then n tensors to optimize X, their
// gradients G and S groups of n state tensors (Adagrad: H; Adam: V, H; Momentum: V), all
// flattened into one variadic list: R, T, X1..Xn, G1..Gn, S1_1..S1_n, ... It returns the new
// X1..Xn, then the new states group by group. Each tensor's update is elementwise, in that
// tensor's type (float or double; tensors of one call may differ); the few coefficients that
// depend on R and T only are computed once, in double.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bough/tensor.h"
#include "ir/storage.h"
#include "kernels/elementwise_loops.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"

namespace bough::ops::training {

// R and T of one call.
struct Step {
  double rate;    // R
  int64_t count;  // T: how many updates came before this one
};

// Reads R (float or double) and T (int64), each holding exactly one element.
Step read_step(const KernelIO& io, const char* op);

// `states` names the state groups of an optimizer by letter, in input order ("H" for Adagrad,
// "VH" for Adam, "V" for Momentum); S is their number.

// The number n of tensors a node optimizes, from its input and output counts; invalid
// (node.invalid) unless they are 2 + n * (2 + S) and n * (1 + S) for some n >= 1.
size_t tensor_count(const NodeView& node, std::string_view states);

// Output types: each new tensor takes the type of the tensor it replaces; X, G and the states
// of one tensor must agree in element type and shape, R and T hold one element.
void infer_optimizer(InferContext& ctx, std::string_view states);

// Checks that G and the states of tensor i match X_i (type and shape); bad input otherwise.
void check_operands(const KernelIO& io, const char* op, size_t n, std::string_view states,
                    size_t i);

// Runs one update over the n tensors: `rule(x, g, s)` takes an element of X and of G in the
// tensor's type T (float or double) and the element's states (std::array<T, S>&, updated in
// place) and returns the new x.
template <size_t S, typename Rule>
void run_optimizer(KernelIO& io, const char* op, std::string_view states, size_t n,
                   const Rule& rule) {
  for (size_t i = 0; i < n; ++i) {
    check_operands(io, op, n, states, i);
    const Tensor& x = io.input(2 + i);
    auto update = [&]<typename T>(T) {
      const T* xs = x.data<T>();
      const T* gs = io.input(2 + n + i).data<T>();
      std::array<const T*, S> s_in;
      for (size_t j = 0; j < S; ++j) s_in[j] = io.input(2 + (2 + j) * n + i).data<T>();
      // Outputs in place (their slots' buffers reused); an omitted one into a local tensor.
      std::array<Tensor, 1 + S> omitted;
      std::array<T*, 1 + S> out;
      for (size_t j = 0; j <= S; ++j) {
        const size_t o = j * n + i;
        Tensor& t = io.has_output(o) ? io.output_tensor(o) : omitted[j];
        ir::reinit(t, x.type(), x.shape());
        out[j] = t.data<T>();
      }
      io.pool().parallel_for_work(x.numel(), (3 + 2 * S) * kernels::kElementWork,
                                  [&](int64_t b, int64_t e) {
                                    for (int64_t k = b; k < e; ++k) {
                                      std::array<T, S> s;
                                      for (size_t j = 0; j < S; ++j) s[j] = s_in[j][k];
                                      out[0][k] = rule(xs[k], gs[k], s);
                                      for (size_t j = 0; j < S; ++j) out[1 + j][k] = s[j];
                                    }
                                  });
    };
    if (x.type() == ElemType::Double)
      update(double{});
    else
      update(float{});  // check_operands allows float and double only
  }
}

// The kernel of an optimizer. `Method` reads the attributes (constructed from the
// BuildContext) and names the operator (kName) and its state groups (kStates); its
// rule(step) gives, for one call's R and T, the elementwise rule run_optimizer applies.
template <typename Method>
class OptimizerKernel : public Kernel {
 public:
  explicit OptimizerKernel(const BuildContext& ctx)
      : n_(tensor_count(ctx, Method::kStates)), method_(ctx) {}

  void run(KernelIO& io) override {
    const Step step = read_step(io, Method::kName);
    run_optimizer<Method::kStates.size()>(io, Method::kName, Method::kStates, n_,
                                          method_.rule(step));
  }

 private:
  size_t n_;  // tensors optimized
  Method method_;
};

template <typename Method>
std::unique_ptr<Kernel> make_optimizer(const BuildContext& ctx) {
  return std::make_unique<OptimizerKernel<Method>>(ctx);
}

template <typename Method>
void infer(InferContext& ctx) {
  infer_optimizer(ctx, Method::kStates);
}

// The definition of an optimizer from its schema rows: its counts are those of one tensor
// optimized at least (R, T, X, G and a state of each group in; X' and the new states out),
// with no upper limit.
template <typename Method>
OpDef optimizer_def(std::span<const SignatureText> rows) {
  constexpr int kGroups = static_cast<int>(Method::kStates.size());
  return def_from_rows("ai.onnx.preview.training", Method::kName, make_optimizer<Method>,
                       infer<Method>, rows,
                       {.counts = ValueCounts{4 + kGroups, kVariadic, 1 + kGroups, kVariadic}});
}

}  // namespace bough::ops::training
