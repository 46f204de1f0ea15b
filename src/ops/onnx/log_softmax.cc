// LogSoftmax: x - max - log(sum(exp(x - max))) along an axis. Before opset 13 the input is
// coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis (default -1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/onnx/softmax_like.h"

namespace bough::ops {

namespace {

// y[o, :, i] = log_softmax(x[o, :, i]) for each o in [o0, o1) and each i.
template <typename T>
void log_softmax_block(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) {
  const int64_t n = s.n, inner = s.inner;
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* xs = x + o * n * inner + i;
      T* ys = y + o * n * inner + i;
      T mx = -std::numeric_limits<T>::infinity();
      for (int64_t r = 0; r < n; ++r) mx = std::max(mx, xs[r * inner]);
      T sum = 0;
      for (int64_t r = 0; r < n; ++r) sum += std::exp(xs[r * inner] - mx);
      const T shift = mx + std::log(sum);
      for (int64_t r = 0; r < n; ++r) ys[r * inner] = xs[r * inner] - shift;
    }
  }
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return make_softmax_like(ctx, "LogSoftmax",
                           [](const auto* x, auto* y, int64_t o0, int64_t o1, const AxisSplit& s) {
                             log_softmax_block(x, y, o0, o1, s);
                           });
}

}  // namespace

const OpDef& def_LogSoftmax() {
  static const OpDef def{"", "LogSoftmax", {1, 11, 13}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
