// What com.microsoft's bias-and-activation operators share (Gelu, BiasGelu, FastGelu,
// QuickGelu, BiasAdd): y = fn(x + bias + skip), elementwise, where the optional bias is 1-D
// and runs along x's last dimension and the optional skip has x's shape. float and double are
// computed as they are, float16/bfloat16 through float.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/fast_math_maps.h"
#include "kernels/through_float.h"
#include "ops/registry.h"

namespace bough::ops::microsoft {

// Throws BadInput unless `bias` is 1-D of x's last dimension and `skip` has x's shape.
void check_bias_and_skip(const Tensor& x, const Tensor* bias, const Tensor* skip, const char* name);

// y[k] = fn(x[k] + bias[k] + skip[k]) for k < n, bias and skip optional (null).
template <typename T, typename Fn>
void map_run(const T* x, const T* bias, const T* skip, T* y, int64_t n, Fn fn) {
  if (bias && skip)
    for (int64_t k = 0; k < n; ++k) y[k] = fn(x[k] + bias[k] + skip[k]);
  else if (bias)
    for (int64_t k = 0; k < n; ++k) y[k] = fn(x[k] + bias[k]);
  else if (skip)
    for (int64_t k = 0; k < n; ++k) y[k] = fn(x[k] + skip[k]);
  else
    for (int64_t k = 0; k < n; ++k) y[k] = fn(x[k]);
}

// The same for a function of kernels/fast_math.h: floats through its target-dispatched
// loop (the sums first, then the function over them in place).
template <typename T>
void map_run(const T* x, const T* bias, const T* skip, T* y, int64_t n, kernels::FastFn fn) {
  if constexpr (std::is_same_v<T, float>) {
    if (!bias && !skip) return kernels::fast_map(fn, x, y, n);
    map_run(x, bias, skip, y, n, [](float v) { return v; });
    kernels::fast_map(fn, y, y, n);
  } else {
    map_run(x, bias, skip, y, n, [fn](T v) { return kernels::fast_apply(fn, v); });
  }
}

// y = fn(x + bias + skip); fn is a function of the value or a kernels::FastFn, and
// `element_work` what it costs per element (kernels::kGeluWork and the like; see
// util::kMinWorkPerThread).
template <typename Fn>
Tensor bias_map(const Tensor& x, const Tensor* bias, const Tensor* skip, util::ThreadPool& pool,
                const char* name, Fn fn, int64_t element_work = kernels::kElementWork) {
  check_bias_and_skip(x, bias, skip, name);
  auto compute = [&](const Tensor& xw, const Tensor* bw, const Tensor* sw) {
    return kernels::visit_float(xw.type(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor y(xw.type(), xw.shape());
      const T* px = xw.data<T>();
      const T* pb = bw ? bw->data<T>() : nullptr;
      const T* ps = sw ? sw->data<T>() : nullptr;
      T* py = y.data<T>();
      const int64_t c = bw ? bw->numel() : 1;
      pool.parallel_for_work(xw.numel(), element_work, [&](int64_t lo, int64_t hi) {
        if (!pb)
          return map_run(px + lo, pb /* null */, ps ? ps + lo : nullptr, py + lo, hi - lo, fn);
        // Runs within one row of the bias, so that each is a loop the compiler vectorizes
        // (an index taken modulo the row's length kept the whole map scalar: the float Gelu
        // took 10 ns per element instead of 2.6).
        for (int64_t i = lo; i < hi;) {
          const int64_t j = i % c, n = std::min(hi - i, c - j);
          map_run(px + i, pb + j, ps ? ps + i : nullptr, py + i, n, fn);
          i += n;
        }
      });
      return y;
    });
  };
  return kernels::through_float(compute, x, bias, skip);
}

// The kernel of Gelu, BiasGelu and FastGelu: y = Fn(x + bias), the bias (input 1) optional,
// where Fn is a function of kernels/fast_math.h costing `Work` per element.
template <kernels::FastFn Fn, int64_t Work>
class FastBiasMap : public Kernel {
 public:
  explicit FastBiasMap(std::string name) : name_(std::move(name)) {}
  void run(KernelIO& io) override {
    const Tensor* bias = io.has_input(1) ? &io.input(1) : nullptr;
    io.set_output(0, bias_map(io.input(0), bias, nullptr, io.pool(), name_.c_str(), Fn, Work));
  }

 private:
  std::string name_;
};
template <kernels::FastFn Fn, int64_t Work>
std::unique_ptr<Kernel> make_fast_bias_map(const BuildContext& ctx) {
  return std::make_unique<FastBiasMap<Fn, Work>>(ctx.node.op_type);
}

}  // namespace bough::ops::microsoft
