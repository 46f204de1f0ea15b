// The kernel shared by the Reduce* operators: axes come
// from the `axes` attribute in older versions and from the optional second input in newer
// ones (where noop_with_empty_axes makes empty axes the identity); keepdims keeps the
// reduced dimensions as 1.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/extreme_f32.h"
#include "kernels/layout.h"
#include "kernels/reduce_loop.h"
#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"
#include "ops/optional_input.h"
#include "ops/shape_infer.h"

namespace bough::ops {

// Accumulators for kernels::reduce.
template <typename T>
struct SumReducer {
  using Acc = T;
  T init() const { return T(0); }
  T step(T a, T x) const { return static_cast<T>(a + x); }
  T merge(T a, T b) const { return static_cast<T>(a + b); }
  T finish(T a, int64_t) const { return a; }
};

template <typename T>
struct MeanReducer : SumReducer<T> {
  T finish(T a, int64_t n) const {
    if (n == 0)
      return std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN() : T(0);
    return static_cast<T>(a / static_cast<T>(n));
  }
};

template <typename T>
struct ProdReducer {
  using Acc = T;
  T init() const { return T(1); }
  T step(T a, T x) const { return static_cast<T>(a * x); }
  T merge(T a, T b) const { return static_cast<T>(a * b); }
  T finish(T a, int64_t) const { return a; }
};

// Max (IsMax) and Min propagate NaN; an empty set gives -inf / +inf, or the type's lowest /
// highest.
template <typename T, bool IsMax>
struct ExtremeReducer {
  using Acc = T;
  T init() const {
    using L = std::numeric_limits<T>;
    if constexpr (L::has_infinity)
      return IsMax ? -L::infinity() : L::infinity();
    else
      return IsMax ? L::lowest() : L::max();
  }
  // b replaces a when it is further out, or NaN.
  static bool wins(T b, T a) { return (IsMax ? b > a : b < a) || b != b; }
  T step(T a, T x) const { return wins(x, a) ? x : a; }
  T merge(T a, T b) const { return wins(b, a) ? b : a; }
  T finish(T a, int64_t) const { return a; }
  // A contiguous run at once with vector compares, for float (the step above does not
  // vectorize: its NaN test is a branch).
  T fold(const T* x, int64_t n) const requires std::is_same_v<T, float> {
    return kernels::extreme_f32(x, n, IsMax);
  }
};

template <typename T>
using MaxReducer = ExtremeReducer<T, true>;
template <typename T>
using MinReducer = ExtremeReducer<T, false>;

// Reduces x by `plan` with R<T>, for the element types K names (NumericBool for the
// reductions defined on bool); float16/bfloat16 in float.
template <template <typename> class R, kernels::Types K = kernels::Types::Numeric>
Tensor reduce_tensor(const Tensor& x, const kernels::ReducePlan& plan, const char* name) {
  return kernels::through_float(
      [&](const Tensor& x) {
        const ElemType t = x.type();
        return kernels::visit<K>(t, name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          Tensor y(t, plan.out_shape);
          kernels::reduce(plan, x.data<T>(), y.data<T>(), R<T>{});
          return y;
        });
      },
      x);
}

using ReduceCompute = Tensor (*)(const Tensor&, const kernels::ReducePlan&, const char* name);

class ReduceKernel : public Kernel {
 public:
  ReduceKernel(ReduceCompute compute, std::string name, bool axes_input, std::vector<int64_t> axes,
               bool keepdims, bool noop_with_empty_axes)
      : compute_(compute),
        name_(std::move(name)),
        axes_input_(axes_input),
        axes_(std::move(axes)),
        keepdims_(keepdims),
        noop_(noop_with_empty_axes) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::vector<int64_t> axes = axes_input_ ? input_axes(io) : axes_;
    if (axes.empty() && noop_) return io.set_output(0, x);
    const int64_t rank = static_cast<int64_t>(x.rank());
    for (int64_t& a : axes) a = kernels::normalize_axis(a, rank);
    io.set_output(0, compute_(x, kernels::plan_reduce(x.shape(), axes, keepdims_), name_.c_str()));
  }

 private:
  static std::vector<int64_t> input_axes(const KernelIO& io) {
    if (!given_input(io, 1)) return {};
    const Tensor& t = io.input(1);
    if (t.type() != ElemType::Int64) fail(ErrorKind::BadInput, "", "axes must be an int64 tensor");
    if (t.rank() > 1)
      fail(ErrorKind::BadInput, "", "axes must be 1-D, got shape " + shape_string(t.shape()));
    return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
  }

  ReduceCompute compute_;
  std::string name_;
  bool axes_input_;
  std::vector<int64_t> axes_;
  bool keepdims_;
  bool noop_;
};

// The kernel of a reduction by R<T> over the element types K; `AxesInputSince` is the first
// version taking axes as an input (13 for ReduceSum, else 18).
template <template <typename> class R, kernels::Types K = kernels::Types::Numeric,
          int AxesInputSince = 18>
std::unique_ptr<Kernel> make_reduce(const BuildContext& ctx) {
  const bool axes_input = ctx.since >= AxesInputSince;
  return std::make_unique<ReduceKernel>(reduce_tensor<R, K>, ctx.node.op_type, axes_input,
                                        axes_input ? std::vector<int64_t>{} : ctx.attr_ints("axes"),
                                        ctx.attr_int("keepdims", 1) != 0,
                                        axes_input && ctx.attr_int("noop_with_empty_axes", 0) != 0);
}

// The output type of a reduction: axes from the attribute before `AxesInputSince`, else from
// the second input when its value (or its emptiness) is known (none: every axis, or the
// identity with noop_with_empty_axes).
template <int AxesInputSince>
void infer_reduce(InferContext& ctx) {
  const bool axes_input = ctx.since >= AxesInputSince;
  std::optional<std::vector<int64_t>> axes;
  if (!axes_input)
    axes = ctx.attr_ints("axes");
  else if (!ctx.has_input(1))
    axes = std::vector<int64_t>{};
  else if (!(axes = int_values(ctx, 1)) && is_empty(ctx.input_shape(1)))
    axes = std::vector<int64_t>{};  // an axes input of no elements, its value unknown
  if (axes_input && axes && axes->empty() && ctx.attr_int("noop_with_empty_axes", 0) != 0)
    return infer_same_as_first(ctx);
  ctx.set_output_tensor(
      0, ctx.input_elem(0),
      reduced_shape(ctx, ctx.input_shape(0), axes, ctx.attr_int("keepdims", 1) != 0));
}

// The definitions of the reductions whose schema rows are alike: ReduceL1, L2, LogSum,
// LogSumExp, Mean, Prod and SumSquare (versions 1, 11, 13, 18), and ReduceMax and Min (which
// add int8/uint8 at 12 and bool at 20). Not ReduceSum: its axes became an input at 13.
OpDef numeric_reduce_def(std::string_view name, KernelFactory make);
OpDef extreme_reduce_def(std::string_view name, KernelFactory make);

// The same, the kernel reducing with R<T> (an operator file keeps only its reducer).
template <template <typename> class R>
OpDef numeric_reduce_def(std::string_view name) {
  return numeric_reduce_def(name, make_reduce<R>);
}
template <template <typename> class R>
OpDef extreme_reduce_def(std::string_view name) {
  return extreme_reduce_def(name, make_reduce<R, kernels::Types::NumericBool>);
}

}  // namespace bough::ops
