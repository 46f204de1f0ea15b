// ArgMax and ArgMin: the int64 index of the best element along `axis` (keepdims keeps the
// axis as 1; select_last_index, from opset 12, picks the last of equal best elements).
#pragma once

#include <vector>

#include "kernels/dispatch.h"
#include "kernels/layout.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/axis_split.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

template <bool IsMax>
class ArgReduce : public Kernel {
 public:
  ArgReduce(int64_t axis, bool keepdims, bool select_last)
      : axis_(axis), keepdims_(keepdims), select_last_(select_last) {}

  void run(KernelIO& io) override {
    const char* name = IsMax ? "ArgMax" : "ArgMin";
    const Tensor& in = io.input(0);
    const Tensor x = kernels::widen(in);
    const int64_t rank = static_cast<int64_t>(x.rank());
    const int64_t axis = kernels::normalize_axis(axis_, rank);
    const AxisSplit s = split_at_axis(x.shape(), axis, false);
    Dims shape = x.shape();
    if (keepdims_)
      shape[axis] = 1;
    else
      shape.erase(axis);
    Tensor y(ElemType::Int64, shape);
    if (y.numel() > 0 && s.n == 0)
      fail(ErrorKind::BadInput, "", std::string(name) + " over an empty axis");
    kernels::visit_numeric(x.type(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      find<T>(x.data<T>(), y.data<int64_t>(), s);
    });
    io.set_output(0, std::move(y));
  }

 private:
  template <typename T>
  bool better(T v, T best) const {
    if constexpr (IsMax)
      return select_last_ ? v >= best : v > best;
    else
      return select_last_ ? v <= best : v < best;
  }

  // For each (o, i): the index r of the best x[o, r, i].
  template <typename T>
  void find(const T* x, int64_t* y, const AxisSplit& s) const {
    const int64_t outer = s.outer, n = s.n, inner = s.inner;
    std::vector<T> best(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
      const T* block = x + o * n * inner;
      int64_t* idx = y + o * inner;
      for (int64_t i = 0; i < inner; ++i) {
        best[i] = block[i];
        idx[i] = 0;
      }
      for (int64_t r = 1; r < n; ++r) {
        const T* row = block + r * inner;
        for (int64_t i = 0; i < inner; ++i) {
          if (better(row[i], best[i])) {
            best[i] = row[i];
            idx[i] = r;
          }
        }
      }
    }
  }

  int64_t axis_;
  bool keepdims_;
  bool select_last_;
};

template <bool IsMax>
std::unique_ptr<Kernel> make_arg_reduce(const BuildContext& ctx) {
  return std::make_unique<ArgReduce<IsMax>>(
      ctx.attr_int("axis", 0), ctx.attr_int("keepdims", 1) != 0,
      ctx.since >= 12 && ctx.attr_int("select_last_index", 0) != 0);
}

// int64 indices: the input's shape with `axis` kept as 1 (keepdims) or dropped.
inline void infer_arg_reduce(InferContext& ctx) {
  const ir::Shape& in = ctx.input_shape(0);
  std::optional<std::vector<int64_t>> axis;
  if (in.rank_known) axis = std::vector<int64_t>{ctx.attr_int("axis", 0)};
  ctx.set_output_tensor(0, ElemType::Int64,
                        reduced_shape(ctx, in, axis, ctx.attr_int("keepdims", 1) != 0));
}

// ArgMax (IsMax) or ArgMin: the two share every schema row.
inline constexpr SignatureText kArgReduceRows[] = {
    {1, "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1"},
    {11, "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1"},
    {12,
     "data: T -> reduced: tensor(int64); T = numeric; axis: int = 0, keepdims: int = 1, "
     "select_last_index: int = 0"},
    {13,
     "data: T -> reduced: tensor(int64); T = numeric bfloat16; axis: int = 0, keepdims: int = 1, "
     "select_last_index: int = 0"}};
template <bool IsMax>
OpDef arg_reduce_def(std::string_view name) {
  return def_from_rows("", name, make_arg_reduce<IsMax>, infer_arg_reduce, kArgReduceRows);
}

}  // namespace bough::ops
