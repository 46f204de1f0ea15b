// Hardmax: 1 at the first largest element along an axis, 0 elsewhere. Before opset 13 the
// input is coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis
// (default -1).
#include "kernels/elementwise_loops.h"
#include "ops/onnx/axis_split.h"
#include "ops/onnx/math_map.h"

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

class Hardmax : public Kernel {
 public:
  Hardmax(int64_t axis, bool coerce_2d) : axis_(axis), coerce_2d_(coerce_2d) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const ElemType t = in.type();
    const Tensor x = is_narrow_float(t) ? kernels::to_float(in) : in;
    const AxisSplit s = split_at_axis(x.shape(), axis_, coerce_2d_);
    Tensor y = kernels::visit_float(x.type(), "Hardmax", [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor out(x.type(), x.shape());
      const T* px = x.data<T>();
      T* py = out.data<T>();
      const int64_t grain =
          std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, s.n * s.inner));
      io.pool().parallel_for(s.outer, grain,
                             [&](int64_t b, int64_t e) { hardmax_block(px, py, b, e, s); });
      return out;
    });
    io.set_output(0, is_narrow_float(t) ? kernels::cast(y, t) : y);
  }

 private:
  int64_t axis_;
  bool coerce_2d_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool coerce = ctx.since < 13;
  return std::make_unique<Hardmax>(ctx.attr_int("axis", coerce ? 1 : -1), coerce);
}

}  // namespace

const OpDef& def_Hardmax() {
  static const OpDef def{"", "Hardmax", {1, 11, 13}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
