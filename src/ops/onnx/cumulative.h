// The kernel CumSum and CumProd share: running totals along the axis given by input 1 (a 0-D
// or 1-element integer tensor). exclusive=1 leaves the current element out (the first total
// is 0 for a sum, 1 for a product); reverse=1 runs from the back. float16/bfloat16 go
// through float.
#pragma once

#include <memory>
#include <string>

#include "kernels/dispatch.h"
#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/onnx/axis_split.h"
#include "ops/registry.h"

namespace bough::ops {

enum class Total { Sum, Product };

template <Total K, typename T>
T add_to_total(T acc, T v) {
  if constexpr (K == Total::Sum)
    return static_cast<T>(acc + v);
  else
    return static_cast<T>(acc * v);
}

// y[o, :, i] = running totals of x[o, :, i] for each o in [o0, o1) and each i.
template <Total K, typename T>
void running_totals(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s, bool exclusive,
                    bool reverse) {
  const int64_t n = s.n, inner = s.inner;
  for_each_column(x, y, o0, o1, s, [n, inner, exclusive, reverse](const T* xs, T* ys) {
    T acc = K == Total::Sum ? T(0) : T(1);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t at = (reverse ? n - 1 - j : j) * inner;
      if (exclusive) {
        ys[at] = acc;
        acc = add_to_total<K>(acc, xs[at]);
      } else {
        acc = add_to_total<K>(acc, xs[at]);
        ys[at] = acc;
      }
    }
  });
}

template <Total K>
class Cumulative : public Kernel {
 public:
  Cumulative(bool exclusive, bool reverse) : exclusive_(exclusive), reverse_(reverse) {}

  void run(KernelIO& io) override {
    const char* name = K == Total::Sum ? "CumSum" : "CumProd";
    const Tensor& in = io.input(0);
    if (in.rank() == 0)
      fail(ErrorKind::BadInput, "", std::string(name) + " input must have rank >= 1");
    const AxisSplit s = split_at_axis(in.shape(), kernels::read_int(io.input(1), "axis"), false);
    auto totals = [&](const Tensor& x) {
      return kernels::visit_numeric(x.type(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        return map_outer_blocks<T>(x, s, io.pool(),
                                   [&](const T* px, T* py, int64_t o0, int64_t o1) {
                                     running_totals<K>(px, py, o0, o1, s, exclusive_, reverse_);
                                   });
      });
    };
    io.set_output(0, kernels::through_float(totals, in));
  }

 private:
  bool exclusive_, reverse_;
};

template <Total K>
std::unique_ptr<Kernel> make_cumulative(const BuildContext& ctx) {
  return std::make_unique<Cumulative<K>>(ctx.attr_int("exclusive", 0) != 0,
                                         ctx.attr_int("reverse", 0) != 0);
}

}  // namespace bough::ops
