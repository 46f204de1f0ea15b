// Elementwise loops over the broadcasting iterator, split across threads when large.
#pragma once

#include "bough/tensor.h"
#include "exec/thread_pool.h"
#include "kernels/broadcast.h"

namespace bough::kernels {

// Elements per thread chunk below which splitting does not pay.
inline constexpr int64_t kParallelGrain = 1 << 16;

// out[i] = op(a[i], b[i]) with multidirectional broadcasting. `out` is allocated here.
template <typename TA, typename TB, typename TO, typename Op>
Tensor binary_map(const Tensor& a, const Tensor& b, ElemType out_type, exec::ThreadPool& pool,
                  Op op) {
  const bool same_shape = a.shape() == b.shape();  // the common case skips broadcasting
  Tensor out = same_shape ? Tensor(out_type, a.shape())
                          : Tensor(out_type, broadcast_shape(a.shape(), b.shape()));
  const TA* pa = a.data<TA>();
  const TB* pb = b.data<TB>();
  TO* po = out.data<TO>();
  const int64_t total = out.numel();
  if (total == 0) return out;
  // One flat run when both cover the output, e.g. equal shapes or [1,4] and [4].
  if (same_shape || (a.numel() == total && b.numel() == total)) {
    pool.parallel_for(total, kParallelGrain, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = op(pa[i], pb[i]);
    });
    return out;
  }
  const Dims* shapes[] = {&a.shape(), &b.shape()};
  BroadcastLoop L = make_broadcast_loop(out.shape(), shapes);
  const int64_t sa = L.inner_stride(0), sb = L.inner_stride(1);
  auto runs = [&](int64_t s, int64_t e) {
    for_each_run(L, s, e, [&](int64_t o, const int64_t* in, int64_t n) {
      TO* dst = po + o;
      const TA* x = pa + in[0];
      const TB* y = pb + in[1];
      if (sa && sb) {
        for (int64_t i = 0; i < n; ++i) dst[i] = op(x[i], y[i]);
      } else if (sb) {
        const TA xv = *x;
        for (int64_t i = 0; i < n; ++i) dst[i] = op(xv, y[i]);
      } else if (sa) {
        const TB yv = *y;
        for (int64_t i = 0; i < n; ++i) dst[i] = op(x[i], yv);
      } else {
        const TO v = op(*x, *y);
        for (int64_t i = 0; i < n; ++i) dst[i] = v;
      }
    });
  };
  int64_t grain = std::max<int64_t>(1, kParallelGrain / L.inner());
  pool.parallel_for(L.outer(), grain, runs);
  return out;
}

// out[i] = op(x[i]).
template <typename TI, typename TO, typename Op>
Tensor unary_map(const Tensor& x, ElemType out_type, exec::ThreadPool& pool, Op op) {
  Tensor out(out_type, x.shape());
  const TI* px = x.data<TI>();
  TO* po = out.data<TO>();
  pool.parallel_for(x.numel(), kParallelGrain, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = op(px[i]);
  });
  return out;
}

}  // namespace bough::kernels
