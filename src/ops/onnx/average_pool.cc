// AveragePool: the mean over each window of X (N x C x D1..Dn). The divisor counts the taps
// inside the input, or with count_include_pad (opset 7+) those inside the padded input
// (taps past the padding that ceil_mode adds never count). float16/bfloat16 go through float.
#include "kernels/pool_inside.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/float_pool.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace average_pool_op {

struct Average {
  bool include_pad;

  template <typename Tag>
  void operator()(Tag, const Tensor& x, Tensor& y, const kernels::Window& w,
                  util::ThreadPool& pool) const {
    using T = typename Tag::type;
    // Every window inside the image: each divides by the kernel's size, padding or not.
    if (const auto g = kernels::inside_window(w))
      return kernels::pool_inside<false>(x.data<T>(), y.data<T>(), x.dim(0) * x.dim(1), *g, pool);
    const kernels::PoolWindows win(w);
    const int64_t len = win.row_length();
    kernels::for_each_pool_row<T>(
        x, y, w, win, pool,
        [&win, len, include_pad = include_pad](
            const T* plane, T* out, std::span<const int64_t> image_rows, int64_t padded, int64_t) {
          std::fill(out, out + len, T(0));
          win.fold_row(plane, image_rows, out, [](T a, T v) { return a + v; });
          for (int64_t j = 0; j < len; ++j) {
            const int64_t count = include_pad
                                      ? padded * win.padded(j)
                                      : static_cast<int64_t>(image_rows.size()) * win.count(j);
            out[j] = count > 0 ? out[j] / static_cast<T>(count) : T(0);
          }
        });
  }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return make_float_pool(read_pool_attrs(ctx, "AveragePool"), "AveragePool",
                         Average{ctx.attr_int("count_include_pad", 0) != 0});
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, kernel_shape: ints, pads: ints?, "
     "strides: ints?"},
    {7,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, count_include_pad: int = 0, "
     "kernel_shape: ints, pads: ints?, strides: ints?"},
    {10,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, ceil_mode: int = 0, "
     "count_include_pad: int = 0, kernel_shape: ints, pads: ints?, strides: ints?"},
    {11,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, ceil_mode: int = 0, "
     "count_include_pad: int = 0, kernel_shape: ints, pads: ints?, strides: ints?"},
    {19,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, ceil_mode: int = 0, "
     "count_include_pad: int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, strides: "
     "ints?"},
    {22,
     "X: T -> Y: T; T = floats bfloat16; auto_pad: string = NOTSET, ceil_mode: int = 0, "
     "count_include_pad: int = 0, dilations: ints?, kernel_shape: ints, pads: ints?, strides: "
     "ints?"}};

}  // namespace average_pool_op
}  // namespace

OpDef def_AveragePool() {
  using namespace average_pool_op;
  return def_from_rows("", "AveragePool", make, infer_pool, kRows);
}

}  // namespace bough::ops
