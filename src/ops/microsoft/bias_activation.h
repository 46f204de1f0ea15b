// What com.microsoft's bias-and-activation operators share (Gelu, BiasGelu, FastGelu,
// QuickGelu, BiasAdd): y = fn(x + bias + skip), elementwise, where the optional bias is 1-D
// and runs along x's last dimension and the optional skip has x's shape. float and double are
// computed as they are, float16/bfloat16 through float.
#pragma once

#include <string>

#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/through_float.h"
#include "ops/registry.h"

namespace bough::ops::microsoft {

// Throws BadInput unless `bias` is 1-D of x's last dimension and `skip` has x's shape.
void check_bias_and_skip(const Tensor& x, const Tensor* bias, const Tensor* skip, const char* name);

// `element_work` is what fn costs per element (kernels::kGeluWork and the like; see
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
        for (int64_t i = lo; i < hi; ++i) {
          T v = px[i];
          if (pb) v += pb[i % c];
          if (ps) v += ps[i];
          py[i] = fn(v);
        }
      });
      return y;
    });
  };
  return kernels::through_float(compute, x, bias, skip);
}

}  // namespace bough::ops::microsoft
