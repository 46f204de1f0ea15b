// CumSum: running sums along the axis given by input 1 (a 0-D or 1-element integer
// tensor). exclusive=1 leaves the current element out; reverse=1 sums from the back.
#include <algorithm>

#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "ops/onnx/axis_split.h"
#include "ops/onnx/math_map.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
template <typename T>
void cumsum_block(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s, bool exclusive,
                  bool reverse) {
  const int64_t n = s.n, inner = s.inner;
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      T acc = T(0);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t r = reverse ? n - 1 - j : j;
        const int64_t at = (o * n + r) * inner + i;
        if (exclusive) {
          y[at] = acc;
          acc = static_cast<T>(acc + x[at]);
        } else {
          acc = static_cast<T>(acc + x[at]);
          y[at] = acc;
        }
      }
    }
  }
}

class CumSum : public Kernel {
 public:
  CumSum(bool exclusive, bool reverse) : exclusive_(exclusive), reverse_(reverse) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const ElemType t = in.type();
    const Tensor x = is_narrow_float(t) ? kernels::to_float(in) : in;
    const int64_t axis = kernels::read_int(io.input(1), "axis");
    if (x.rank() == 0) fail(ErrorKind::BadInput, "", "CumSum input must have rank >= 1");
    const AxisSplit s = split_at_axis(x.shape(), axis, false);
    Tensor y = kernels::visit_numeric(x.type(), "CumSum", [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor out(x.type(), x.shape());
      const T* px = x.data<T>();
      T* py = out.data<T>();
      const int64_t grain = std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, s.n * s.inner));
      io.pool().parallel_for(s.outer, grain, [&](int64_t b, int64_t e) {
        cumsum_block(px, py, b, e, s, exclusive_, reverse_);
      });
      return out;
    });
    io.set_output(0, is_narrow_float(t) ? kernels::cast(y, t) : y);
  }

 private:
  bool exclusive_, reverse_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<CumSum>(ctx.attr_int("exclusive", 0) != 0,
                                  ctx.attr_int("reverse", 0) != 0);
}
}  // namespace

const OpDef& def_CumSum() {
  static const OpDef def{"", "CumSum", {11, 14}, 2, 2, 1, 1, make};
  return def;
}

}  // namespace bough::ops
