// Hardmax: 1 at the first largest element along an axis, 0 elsewhere. Before opset 13 the
// input is coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis
// (default -1).
#include "ops/onnx/softmax_like.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace hardmax_op {

// y[o, :, i] = hardmax(x[o, :, i]) for each o in [o0, o1) and each i.
struct Hardmax {
  static constexpr const char* name = "Hardmax";
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    const int64_t n = s.n, inner = s.inner;
    for_each_column(x, y, o0, o1, s, [n, inner](const T* xs, T* ys) {
      int64_t best = 0;
      for (int64_t r = 0; r < n; ++r) {
        if (xs[r * inner] > xs[best * inner]) best = r;
        ys[r * inner] = T(0);
      }
      if (n > 0) ys[best * inner] = T(1);
    });
  }
};

}  // namespace hardmax_op
}  // namespace

OpDef def_Hardmax() { return softmax_like_def<hardmax_op::Hardmax>(); }

}  // namespace bough::ops
