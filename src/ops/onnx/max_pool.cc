// MaxPool: the maximum over each window of X (N x C x D1..Dn); padding never wins. The
// optional Indices output (opset 8+) gives each maximum's flat index into X, the spatial
// part row-major (storage_order 0) or column-major (1). float16/bfloat16 go through float.
#include <algorithm>

#include "kernels/pool_inside.h"
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
void max_pool(const Tensor& x, Tensor& y, int64_t* indices, const kernels::Window& w,
              bool column_major, util::ThreadPool& pool) {
  if (const auto g = kernels::inside_window(w); g && !indices)
    return kernels::pool_inside<true>(x.data<T>(), y.data<T>(), x.dim(0) * x.dim(1), *g, pool);
  const kernels::PoolWindows win(w);
  const int64_t in = w.in_numel(), len = win.row_length(), dil = win.dilation();
  const T* dst = y.data<T>();
  kernels::for_each_pool_row<T>(
      x, y, w, win, pool,
      [&w, &win, indices, dst, in, len, dil, column_major](
          const T* plane, T* out, std::span<const int64_t> image_rows, int64_t, int64_t pl) {
        if (!indices) {
          std::fill(out, out + len, kernels::pool_lowest<T>());
          win.fold_row(plane, image_rows, out, [](T a, T v) { return std::max(a, v); });
          return;
        }
        for (int64_t j = 0; j < len; ++j) {
          const int64_t first = win.first(j), n = win.count(j);
          T best = kernels::pool_lowest<T>();
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

OpDef def_MaxPool() {
  using namespace max_pool_op;
  return def_from_rows("", "MaxPool", make, infer_pool, kRows);
}

}  // namespace bough::ops
