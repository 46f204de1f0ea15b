// LogSoftmax: x - max - log(sum(exp(x - max))) along an axis. Before opset 13 the input is
// coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis (default -1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/onnx/softmax_like.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

// y[o, :, i] = log_softmax(x[o, :, i]) for each o in [o0, o1) and each i.
struct LogSoftmax {
  static constexpr const char* name = "LogSoftmax";
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    const int64_t n = s.n, inner = s.inner;
    for_each_column(x, y, o0, o1, s, [n, inner](const T* xs, T* ys) {
      T mx = -std::numeric_limits<T>::infinity();
      for (int64_t r = 0; r < n; ++r) mx = std::max(mx, xs[r * inner]);
      T sum = 0;
      for (int64_t r = 0; r < n; ++r) sum += std::exp(xs[r * inner] - mx);
      const T shift = mx + std::log(sum);
      for (int64_t r = 0; r < n; ++r) ys[r * inner] = xs[r * inner] - shift;
    });
  }
};

}  // namespace

const OpDef& def_LogSoftmax() {
  static const OpDef def{"",
                         "LogSoftmax",
                         {1, 11, 13},
                         1,
                         1,
                         1,
                         1,
                         make_softmax_like<LogSoftmax>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats; axis: int = 1"},
                          {11, "input: T -> output: T; T = floats; axis: int = 1"},
                          {13, "input: T -> output: T; T = floats bfloat16; axis: int = -1"}}};
  return def;
}

}  // namespace bough::ops
