// The kernel Softmax, LogSoftmax and Hardmax share: a float operator along one axis (default
// -1). Before opset 13 the input is coerced to 2-D at `axis` (default 1) and the operator runs
// over all of the trailing part. float16/bfloat16 go through float.
#pragma once

#include <memory>
#include <utility>

#include "kernels/dispatch.h"
#include "kernels/softmax_rows.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/axis_split.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

// Block names the operator (Block::name) and is callable as Block{}(x, y, o0, o1, split) for
// T = float and double: it writes the outer blocks [o0, o1) of y from those of x. Its kWork,
// if any, is what an element costs (kernels::work_of).
template <typename Block>
class SoftmaxLike : public Kernel {
 public:
  SoftmaxLike(int64_t axis, bool coerce_2d) : axis_(axis), coerce_2d_(coerce_2d) {}

  void run(KernelIO& io) override {
    auto along_axis = [&](const Tensor& x) {
      const AxisSplit s = split_at_axis(x.shape(), axis_, coerce_2d_);
      return kernels::visit_float(x.type(), Block::name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        return map_outer_blocks<T>(
            x, s, io.pool(),
            [&](const T* px, T* py, int64_t o0, int64_t o1) { Block{}(px, py, o0, o1, s); },
            kernels::work_of<Block>(kernels::kElementWork));
      });
    };
    io.set_output(0, kernels::through_float(along_axis, io.input(0)));
  }

 private:
  int64_t axis_;
  bool coerce_2d_;
};

// The Block of Softmax (Log false) and LogSoftmax (Log true): kernels::softmax_blocks.
template <bool Log>
struct SoftmaxBlock {
  static constexpr const char* name = Log ? "LogSoftmax" : "Softmax";
  static constexpr int64_t kWork = kernels::kSoftmaxWork;
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    kernels::softmax_blocks<Log>(x, y, o0, o1, s.n, s.inner);
  }
};

template <typename Block>
std::unique_ptr<Kernel> make_softmax_like(const BuildContext& ctx) {
  const bool coerce = ctx.since < 13;
  return std::make_unique<SoftmaxLike<Block>>(ctx.attr_int("axis", coerce ? 1 : -1), coerce);
}

// Softmax, LogSoftmax and Hardmax share every schema row; Block names the operator.
inline constexpr SignatureText kSoftmaxLikeRows[] = {
    {1, "input: T -> output: T; T = floats; axis: int = 1"},
    {11, "input: T -> output: T; T = floats; axis: int = 1"},
    {13, "input: T -> output: T; T = floats bfloat16; axis: int = -1"}};
template <typename Block>
OpDef softmax_like_def() {
  return def_from_rows("", Block::name, make_softmax_like<Block>, infer_same_as_first,
                       kSoftmaxLikeRows);
}

}  // namespace bough::ops
