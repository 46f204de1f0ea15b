// The negative log-likelihood that NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
// share: log-probabilities (N, C, d1, ...), integer targets (N, d1, ...) and optional class
// weights (C). A target equal to ignore_index counts with weight 0; the mean divides by the
// sum of the weights of the counted targets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/shape_args.h"
#include "ops/attr_choice.h"
#include "ops/registry.h"

namespace bough::ops {

enum class LossReduction { None, Sum, Mean };

inline LossReduction loss_reduction(const NodeView& ctx) {
  return attr_choice<LossReduction>(
      ctx, "reduction", "mean",
      {{"none", LossReduction::None}, {"sum", LossReduction::Sum}, {"mean", LossReduction::Mean}});
}

inline std::optional<int64_t> loss_ignore_index(const BuildContext& ctx) {
  if (!ctx.has_attr("ignore_index")) return std::nullopt;
  return ctx.attr_int("ignore_index", 0);
}

// The checked view of the operands: scores (n, c, d), d the product of the trailing dims.
struct LossShape {
  int64_t n = 0, c = 0, d = 1;
  std::vector<int64_t> target;  // the targets, read as int64
};

inline LossShape check_loss_operands(const Tensor& scores, const Tensor& target,
                                     const Tensor* weight, std::optional<int64_t> ignore,
                                     const char* op) {
  auto bad = [&](const std::string& m) {
    fail(ErrorKind::BadInput, "", std::string(op) + " " + m);
  };
  if (scores.rank() < 2) bad("input must have rank >= 2, got " + shape_string(scores.shape()));
  if (target.type() != ElemType::Int32 && target.type() != ElemType::Int64)
    bad("target must be int32 or int64");
  Dims expect;
  expect.push_back(scores.dim(0));
  for (size_t i = 2; i < scores.rank(); ++i) expect.push_back(scores.dim(i));
  if (target.shape() != expect)
    bad("target of shape " + shape_string(target.shape()) + " does not match input " +
        shape_string(scores.shape()) + " (expected " + shape_string(expect) + ")");
  LossShape s;
  s.n = scores.dim(0);
  s.c = scores.dim(1);
  for (size_t i = 2; i < scores.rank(); ++i) s.d *= scores.dim(i);
  if (weight) {
    if (weight->type() != scores.type()) bad("weight must have the input's element type");
    if (weight->shape() != Dims{s.c})
      bad("weight must have shape " + shape_string(Dims{s.c}) + ", got " +
          shape_string(weight->shape()));
  }
  s.target = kernels::read_ints(target, "target");
  for (int64_t t : s.target)
    if ((!ignore || t != *ignore) && (t < 0 || t >= s.c))
      bad("target " + std::to_string(t) + " is outside [0, " + std::to_string(s.c) + ")");
  return s;
}

// The loss from log-probabilities `logp` laid out (n, c, d), in the input's type T (float or
// double); `loss_shape` is the target's shape, used with reduction none.
template <typename T>
Tensor nll_from_log_prob(const T* logp, const T* weight, const LossShape& s,
                         std::optional<int64_t> ignore, LossReduction reduction, ElemType type,
                         const Dims& loss_shape) {
  Tensor per(type, reduction == LossReduction::None ? loss_shape : Dims{});
  T* out = reduction == LossReduction::None ? per.data<T>() : nullptr;
  double sum = 0, wsum = 0;
  for (int64_t i = 0; i < s.n; ++i) {
    for (int64_t k = 0; k < s.d; ++k) {
      const int64_t t = s.target[static_cast<size_t>(i * s.d + k)];
      double loss = 0, w = 0;
      if (!ignore || t != *ignore) {
        w = weight ? static_cast<double>(weight[t]) : 1.0;
        loss = -static_cast<double>(logp[(i * s.c + t) * s.d + k]) * w;
      }
      if (out) out[i * s.d + k] = static_cast<T>(loss);
      sum += loss;
      wsum += w;
    }
  }
  if (reduction == LossReduction::Sum) per.data<T>()[0] = static_cast<T>(sum);
  if (reduction == LossReduction::Mean) per.data<T>()[0] = static_cast<T>(sum / wsum);
  return per;
}

// What the kernels of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share: the
// node's reduction and ignore_index, their operands checked, and the loss of
// log-probabilities.
class LossKernel : public Kernel {
 public:
  explicit LossKernel(const BuildContext& ctx)
      : reduction_(loss_reduction(ctx)), ignore_(loss_ignore_index(ctx)) {}

 protected:
  struct Operands {
    const Tensor& scores;
    const Tensor& target;
    const Tensor* weight;  // null when not given
    LossShape shape;
  };
  // Inputs 0, 1 and 2 (optional), checked for operator `op`.
  Operands operands(const KernelIO& io, const char* op) const {
    const Tensor& scores = io.input(0);
    const Tensor& target = io.input(1);
    const Tensor* weight = io.has_input(2) ? &io.input(2) : nullptr;
    return {scores, target, weight, check_loss_operands(scores, target, weight, ignore_, op)};
  }
  // nll_from_log_prob of `logp` (laid out as the scores, in their type `type`) with this
  // node's reduction and ignore_index.
  template <typename T>
  Tensor loss(const T* logp, const T* weight, const Operands& o, ElemType type) const {
    return nll_from_log_prob<T>(logp, weight, o.shape, ignore_, reduction_, type, o.target.shape());
  }

 private:
  LossReduction reduction_;
  std::optional<int64_t> ignore_;
};

// Output types of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: the loss in the
// scores' type, shaped as the targets with reduction "none" and a scalar otherwise;
// SoftmaxCrossEntropyLoss's log_prob as the scores. Targets whose dims do not follow the
// scores' (N, d1, ...) are invalid.
inline void infer_loss(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  const ir::Shape& t = ctx.input_shape(1);
  if (s.rank_known && s.dims.size() < 2)
    ctx.invalid("the scores need rank 2 or more (N, C, ...), not " + std::to_string(s.dims.size()));
  if (s.rank_known && t.rank_known) {
    if (t.dims.size() + 1 != s.dims.size())
      ctx.invalid("the targets have rank " + std::to_string(t.dims.size()) +
                  ", the scores need rank " + std::to_string(s.dims.size() - 1));
    for (size_t d = 0; d < t.dims.size(); ++d) {
      const ir::Dim& sd = s.dims[d == 0 ? 0 : d + 1];
      if (sd.is_known() && t.dims[d].is_known() && sd.value != t.dims[d].value)
        ctx.invalid("the targets' dim " + std::to_string(d) + " (" +
                    std::to_string(t.dims[d].value) + ") does not match the scores' (" +
                    std::to_string(sd.value) + ")");
    }
  }
  ir::Shape loss = ir::Shape::of({});
  if (loss_reduction(ctx) == LossReduction::None) {
    loss = t;
    if (!t.rank_known && s.rank_known) {
      loss = s;
      loss.dims.erase(loss.dims.begin() + 1);
    }
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), std::move(loss));
  if (ctx.num_outputs() > 1) ctx.set_output(1, ctx.input_type(0));
}

}  // namespace bough::ops
