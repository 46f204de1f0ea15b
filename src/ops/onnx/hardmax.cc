// Hardmax: 1 at the first largest element along an axis, 0 elsewhere. Before opset 13 the
// input is coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis
// (default -1).
#include "ops/onnx/softmax_like.h"

namespace bough::ops {

namespace {

template <typename T>
void hardmax_block(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) {
  const int64_t n = s.n, inner = s.inner;
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* xs = x + o * n * inner + i;
      T* ys = y + o * n * inner + i;
      int64_t best = 0;
      for (int64_t r = 0; r < n; ++r) {
        if (xs[r * inner] > xs[best * inner]) best = r;
        ys[r * inner] = T(0);
      }
      if (n > 0) ys[best * inner] = T(1);
    }
  }
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return make_softmax_like(ctx, "Hardmax",
                           [](const auto* x, auto* y, int64_t o0, int64_t o1, const AxisSplit& s) {
                             hardmax_block(x, y, o0, o1, s);
                           });
}

}  // namespace

const OpDef& def_Hardmax() {
  static const OpDef def{"", "Hardmax", {1, 11, 13}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
