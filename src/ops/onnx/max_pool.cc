// MaxPool: the maximum over each window of X (N x C x D1..Dn); padding never wins. The
// optional Indices output (opset 8+) gives each maximum's flat index into X, the spatial
// part row-major (storage_order 0) or column-major (1). float16/bfloat16 go through float.
#include <algorithm>
#include <limits>

#include "kernels/pool_window.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace max_pool_op {

template <typename T>
T lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

// Whether `w` is the 2 x 2, stride 2 window of a CNN's downsampling, every window inside
// the image (no padding, no dilation, no partial window from ceil_mode).
bool is_halving_2x2(const kernels::Window& w) {
  if (w.rank() != 2) return false;
  for (size_t d = 0; d < 2; ++d)
    if (w.kernel[d] != 2 || w.stride[d] != 2 || w.dilation[d] != 1 || w.pad_begin[d] != 0 ||
        2 * w.out[d] > w.in[d])
      return false;
  return true;
}

// max_pool for is_halving_2x2 windows without indices: the general walk's per-row window
// bookkeeping costs more than the four comparisons of an output. Same order of
// comparisons (rows, then columns), so the same result for NaN (dropped) and signed zeros.
template <typename T>
void max_pool_2x2(const T* x, T* y, int64_t planes, const kernels::Window& w,
                  util::ThreadPool& pool) {
  const int64_t IH = w.in[0], IW = w.in[1], OH = w.out[0], OW = w.out[1];
  pool.parallel_for(planes * OH, util::grain_for(4 * OW * kernels::kElementWork),
                    [&](int64_t b, int64_t e) {
                      for (int64_t item = b; item < e; ++item) {
                        const int64_t pl = item / OH, oh = item % OH;
                        const T* r0 = x + (pl * IH + 2 * oh) * IW;
                        const T* r1 = r0 + IW;
                        T* out = y + item * OW;
                        for (int64_t ow = 0; ow < OW; ++ow) {
                          T m = std::max(lowest<T>(), r0[2 * ow]);
                          m = std::max(m, r0[2 * ow + 1]);
                          m = std::max(m, r1[2 * ow]);
                          out[ow] = std::max(m, r1[2 * ow + 1]);
                        }
                      }
                    });
}

template <typename T>
void max_pool(const Tensor& x, Tensor& y, int64_t* indices, const kernels::Window& w,
              bool column_major, util::ThreadPool& pool) {
  if (!indices && is_halving_2x2(w))
    return max_pool_2x2(x.data<T>(), y.data<T>(), x.dim(0) * x.dim(1), w, pool);
  const kernels::PoolWindows win(w);
  const int64_t in = w.in_numel(), len = win.row_length(), dil = win.dilation();
  const T* dst = y.data<T>();
  kernels::for_each_pool_row<T>(
      x, y, w, win, pool,
      [&w, &win, indices, dst, in, len, dil, column_major](
          const T* plane, T* out, std::span<const int64_t> image_rows, int64_t, int64_t pl) {
        if (!indices) {
          std::fill(out, out + len, lowest<T>());
          win.fold_row(plane, image_rows, out, [](T a, T v) { return std::max(a, v); });
          return;
        }
        for (int64_t j = 0; j < len; ++j) {
          const int64_t first = win.first(j), n = win.count(j);
          T best = lowest<T>();
          int64_t at = -1;
          for (int64_t row : image_rows) {
            const T* p = plane + row + first;
            for (int64_t t = 0; t < n; ++t)
              if (p[t * dil] > best || at < 0) {
                best = p[t * dil];
                at = row + first + t * dil;
              }
          }
          out[j] = best;
          if (at < 0) at = 0;
          indices[out - dst + j] =
              pl * in + (column_major ? kernels::column_major_offset(w, at) : at);
        }
      });
}

class MaxPool : public Kernel {
 public:
  MaxPool(kernels::WindowAttrs attrs, bool column_major)
      : attrs_(std::move(attrs)), column_major_(column_major) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const kernels::Window w = kernels::pool_window(attrs_, in.shape());
    const std::vector<int64_t> shape = kernels::pooled_shape(in.shape(), w);
    Tensor idx;
    if (io.has_output(1)) idx = Tensor(ElemType::Int64, Dims(shape));
    int64_t* indices = io.has_output(1) ? idx.data<int64_t>() : nullptr;
    auto pool = [&](const Tensor& x) {
      Tensor y(x.type(), Dims(shape));
      kernels::visit_numeric(x.type(), "MaxPool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        max_pool<T>(x, y, indices, w, column_major_, io.pool());
      });
      return y;
    };
    io.set_output(0, kernels::through_float(pool, in));
    if (io.has_output(1)) io.set_output(1, std::move(idx));
  }

 private:
  kernels::WindowAttrs attrs_;
  bool column_major_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  kernels::WindowAttrs attrs = read_pool_attrs(ctx, "MaxPool");
  const int64_t order = ctx.attr_int("storage_order", 0);
  if (order != 0 && order != 1) ctx.invalid("storage_order must be 0 or 1");
  return std::make_unique<MaxPool>(std::move(attrs), order == 1);
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, kernel_shape: ints, pads: ints?, "
     "strides: ints?"},
    {8,
     "X: T -> Y: T, Indices?: I; T = floats, I = int64; auto_pad: string = NOTSET, "
     "kernel_shape: ints, pads: ints?, storage_order: int = 0, strides: ints?"},
    {10,
     "X: T -> Y: T, Indices?: I; T = floats, I = int64; auto_pad: string = NOTSET, ceil_mode: "
     "int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, storage_order: int = 0, "
     "strides: ints?"},
    {11,
     "X: T -> Y: T, Indices?: I; T = floats, I = int64; auto_pad: string = NOTSET, ceil_mode: "
     "int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, storage_order: int = 0, "
     "strides: ints?"},
    {12,
     "X: T -> Y: T, Indices?: I; T = floats int8 uint8, I = int64; auto_pad: string = NOTSET, "
     "ceil_mode: int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, storage_order: int "
     "= 0, strides: ints?"},
    {22,
     "X: T -> Y: T, Indices?: I; T = floats bfloat16 int8 uint8, I = int64; auto_pad: string = "
     "NOTSET, ceil_mode: int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, "
     "storage_order: int = 0, strides: ints?"}};

}  // namespace max_pool_op
}  // namespace

const OpDef& def_MaxPool() {
  using namespace max_pool_op;
  static const OpDef def = def_from_rows("", "MaxPool", make, infer_pool, kRows);
  return def;
}

}  // namespace bough::ops
