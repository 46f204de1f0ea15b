// SoftmaxCrossEntropyLoss: the negative log-likelihood of log_softmax(scores) along axis 1
// (see nll_loss.h for weights, ignore_index and reduction). The optional second output is
// the log-probabilities. float16/bfloat16 go through float.
#include <array>
#include <cmath>
#include <limits>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nll_loss.h"

namespace bough::ops {

namespace {
namespace softmax_cross_entropy_loss_op {

// log_softmax over c of x laid out (n, c, d).
template <typename T>
Tensor log_softmax_axis1(const Tensor& x, const LossShape& s, util::ThreadPool& pool) {
  Tensor out(x.type(), x.shape());
  const T* px = x.data<T>();
  T* py = out.data<T>();
  const int64_t grain = util::grain_for(s.c * kernels::kElementWork);
  pool.parallel_for(s.n * s.d, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t base = (r / s.d) * s.c * s.d + r % s.d;
      T mx = -std::numeric_limits<T>::infinity();
      for (int64_t j = 0; j < s.c; ++j) mx = std::max(mx, px[base + j * s.d]);
      double sum = 0;
      for (int64_t j = 0; j < s.c; ++j)
        sum += std::exp(static_cast<double>(px[base + j * s.d] - mx));
      const T lse = mx + static_cast<T>(std::log(sum));
      for (int64_t j = 0; j < s.c; ++j) py[base + j * s.d] = px[base + j * s.d] - lse;
    }
  });
  return out;
}

class SoftmaxCrossEntropyLoss : public LossKernel {
 public:
  using LossKernel::LossKernel;

  void run(KernelIO& io) override {
    const Operands o = operands(io, "SoftmaxCrossEntropyLoss");
    // The loss, and the log-probabilities when they are wanted.
    auto outputs = [&](const Tensor& x, const Tensor* w) {
      return kernels::visit_float(x.type(), "SoftmaxCrossEntropyLoss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor log_prob = log_softmax_axis1<T>(x, o.shape, io.pool());
        Tensor nll = loss<T>(log_prob.data<T>(), w ? w->data<T>() : nullptr, o, x.type());
        return std::array<Tensor, 2>{nll, io.has_output(1) ? log_prob : Tensor()};
      });
    };
    auto [nll, log_prob] = kernels::through_float(outputs, o.scores, o.weight);
    io.set_output(0, std::move(nll));
    if (io.has_output(1)) io.set_output(1, std::move(log_prob));
  }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<SoftmaxCrossEntropyLoss>(ctx);
}

constexpr SignatureText kRows[] = {
    {12,
     "scores: T, labels: Tind, weights?: T -> output: T, log_prob?: T; T = floats, Tind = int32 "
     "int64; ignore_index: int?, reduction: string = mean"},
    {13,
     "scores: T, labels: Tind, weights?: T -> output: T, log_prob?: T; T = floats bfloat16, "
     "Tind = int32 int64; ignore_index: int?, reduction: string = mean"}};

}  // namespace softmax_cross_entropy_loss_op
}  // namespace

OpDef def_SoftmaxCrossEntropyLoss() {
  using namespace softmax_cross_entropy_loss_op;
  return def_from_rows("", "SoftmaxCrossEntropyLoss", make, infer_loss, kRows);
}

}  // namespace bough::ops
