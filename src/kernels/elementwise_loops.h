// Elementwise loops over the broadcasting iterator, split across threads when large.
#pragma once

#include <algorithm>
#include <type_traits>

#include "bough/tensor.h"
#include "ir/storage.h"
#include "kernels/broadcast.h"
#include "kernels/streaming_store.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// The work of one element of a loop over floats, in bytes read and written (two in, one
// out, rounded up): util::kMinWorkPerThread counts it, and kernels that do not count their
// bytes exactly use it per element.
inline constexpr int64_t kElementWork = 16;

// The tile a loop writing past the cache computes into before streaming it out.
inline constexpr int64_t kStreamingTileBytes = 1024;

// The work of one element of a loop through `Fn`: Fn::kWork where Fn declares what its math
// costs (the functions of kernels/fast_math.h cost many times their bytes), else `bytes`.
template <typename Fn>
constexpr int64_t work_of(int64_t bytes) {
  if constexpr (requires { Fn::kWork; })
    return std::max<int64_t>(Fn::kWork, bytes);
  else
    return bytes;
}

// Makes `out` a `type` tensor of the broadcast shape of `a` and `b` (reusing its buffer when
// it can, see ir::reinit). True when both inputs cover the output element for element,
// e.g. equal shapes or [1,4] and [4], so one flat loop serves.
inline bool prepare_binary_output(const Tensor& a, const Tensor& b, ElemType type, Tensor& out) {
  if (a.shape() == b.shape()) [[likely]] {  // the common case skips broadcasting
    ir::reinit(out, type, a.shape());
    return true;
  }
  return prepare_broadcast_output(a, b, type, out);
}

// out[i] = op(a[i], b[i]) with multidirectional broadcasting, into `out` (reinit'ed here;
// it must not be `a` or `b`).
template <typename TA, typename TB, typename TO, typename Op>
void binary_map_into(const Tensor& a, const Tensor& b, Tensor& out, ElemType out_type,
                     util::ThreadPool& pool, Op op) {
  const bool flat = prepare_binary_output(a, b, out_type, out);
  const TA* pa = a.data<TA>();
  const TB* pb = b.data<TB>();
  TO* po = out.data<TO>();
  const int64_t total = out.numel();
  if (total == 0) return;
  constexpr int64_t kBytes = sizeof(TA) + sizeof(TB) + sizeof(TO);  // per element
  if (flat) {
    if (total == 1) {  // scalars, as in loop counters and conditions: no loop set-up
      po[0] = op(pa[0], pb[0]);
      return;
    }
    pool.parallel_for_work(total, kBytes, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = op(pa[i], pb[i]);
    });
    return;
  }
  const Dims* shapes[] = {&a.shape(), &b.shape()};
  BroadcastLoop L = make_broadcast_loop(out.shape(), shapes);
  const int64_t sa = L.inner_stride(0), sb = L.inner_stride(1);
  // n elements of a run into dst, from x and y (each stepping only if its stride is not 0).
  auto run = [&](TO* dst, const TA* x, const TB* y, int64_t n) {
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
  };
  if constexpr (std::is_arithmetic_v<TO>) {
    if (total * static_cast<int64_t>(sizeof(TO)) >= kStreamingOutputBytes &&
        L.inner() * static_cast<int64_t>(sizeof(TO)) >= kStreamingTileBytes) {
      // Past the cache (kernels/streaming_store.h), for runs of at least a tile (short runs
      // would leave partial lines, which non-temporal stores write slowly): each run goes
      // through a tile in L1 and on with non-temporal stores. The broadcast_add benchmark's
      // 128 MiB output, A [64,1,1024] + B [1,512,1024], is all runs of 1024.
      pool.parallel_for_work(L.outer(), L.inner() * kBytes, [&](int64_t s, int64_t e) {
        constexpr int64_t kTile = kStreamingTileBytes / sizeof(TO);
        alignas(64) TO tile[kTile];
        for_each_run(L, s, e, [&](int64_t o, const int64_t* in, int64_t n) {
          for (int64_t j = 0; j < n; j += kTile) {
            const int64_t m = std::min(kTile, n - j);
            run(tile, pa + in[0] + (sa ? j : 0), pb + in[1] + (sb ? j : 0), m);
            stream_copy(po + o + j, tile, static_cast<size_t>(m) * sizeof(TO));
          }
        });
        streaming_fence();
      });
      return;
    }
  }
  pool.parallel_for_work(L.outer(), L.inner() * kBytes, [&](int64_t s, int64_t e) {
    for_each_run(L, s, e, [&](int64_t o, const int64_t* in, int64_t n) {
      run(po + o, pa + in[0], pb + in[1], n);
    });
  });
}

// binary_map_into a new tensor.
template <typename TA, typename TB, typename TO, typename Op>
Tensor binary_map(const Tensor& a, const Tensor& b, ElemType out_type, util::ThreadPool& pool,
                  Op op) {
  Tensor out;
  binary_map_into<TA, TB, TO>(a, b, out, out_type, pool, op);
  return out;
}

// out[i] = op(x[i]), into `out` (reinit'ed here; it must not be `x`). `item_work` is what
// an element costs (util::kMinWorkPerThread): its bytes unless op's math costs more.
template <typename TI, typename TO, typename Op>
void unary_map_into(const Tensor& x, Tensor& out, ElemType out_type, util::ThreadPool& pool, Op op,
                    int64_t item_work = sizeof(TI) + sizeof(TO)) {
  ir::reinit(out, out_type, x.shape());
  const TI* px = x.data<TI>();
  TO* po = out.data<TO>();
  pool.parallel_for_work(x.numel(), item_work, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = op(px[i]);
  });
}

// unary_map_into a new tensor.
template <typename TI, typename TO, typename Op>
Tensor unary_map(const Tensor& x, ElemType out_type, util::ThreadPool& pool, Op op) {
  Tensor out;
  unary_map_into<TI, TO>(x, out, out_type, pool, op);
  return out;
}

}  // namespace bough::kernels
