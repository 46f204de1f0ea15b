// CumProd: running products along the axis given by input 1 (a 0-D or 1-element integer
// tensor). exclusive=1 leaves the current element out (the first product is 1); reverse=1
// runs from the back. float16/bfloat16 go through float.
#include <algorithm>

#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "ops/onnx/math_map.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {

// x seen as [outer, n, inner] around the axis.
struct Split {
  int64_t outer = 1, n = 1, inner = 1;
};

Split split(const Dims& shape, int64_t axis) {
  Split s;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    const int64_t dim = shape[static_cast<size_t>(d)];
    if (d < axis)
      s.outer *= dim;
    else if (d == axis)
      s.n = dim;
    else
      s.inner *= dim;
  }
  return s;
}

template <typename T>
void cumprod_block(const T* x, T* y, int64_t o0, int64_t o1, const Split& s, bool exclusive,
                   bool reverse) {
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      T acc = T(1);
      for (int64_t j = 0; j < s.n; ++j) {
        const int64_t r = reverse ? s.n - 1 - j : j;
        const int64_t at = (o * s.n + r) * s.inner + i;
        if (exclusive) {
          y[at] = acc;
          acc = static_cast<T>(acc * x[at]);
        } else {
          acc = static_cast<T>(acc * x[at]);
          y[at] = acc;
        }
      }
    }
  }
}

class CumProd : public Kernel {
 public:
  CumProd(bool exclusive, bool reverse) : exclusive_(exclusive), reverse_(reverse) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const ElemType t = in.type();
    if (in.rank() == 0) fail(ErrorKind::BadInput, "", "CumProd input must have rank >= 1");
    const int64_t axis = kernels::normalize_axis(kernels::read_int(io.input(1), "axis"),
                                                 static_cast<int64_t>(in.rank()));
    const Tensor x = is_narrow_float(t) ? kernels::to_float(in) : in;
    const Split s = split(x.shape(), axis);
    Tensor y = kernels::visit_numeric(x.type(), "CumProd", [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor out(x.type(), x.shape());
      const T* px = x.data<T>();
      T* py = out.data<T>();
      const int64_t grain =
          std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, s.n * s.inner));
      io.pool().parallel_for(s.outer, grain, [&](int64_t b, int64_t e) {
        cumprod_block(px, py, b, e, s, exclusive_, reverse_);
      });
      return out;
    });
    io.set_output(0, is_narrow_float(t) ? kernels::cast(y, t) : y);
  }

 private:
  bool exclusive_, reverse_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<CumProd>(ctx.attr_int("exclusive", 0) != 0,
                                   ctx.attr_int("reverse", 0) != 0);
}

}  // namespace

const OpDef& def_CumProd() {
  static const OpDef def{"", "CumProd", {26}, 2, 2, 1, 1, make};
  return def;
}

}  // namespace bough::ops
