// LpPool: the p-norm (sum |x|^p)^(1/p) over each window of X (N x C x D1..Dn); padding adds
// nothing. p is a float attribute in opset 1 and an int from opset 2 (default 2).
// float16/bfloat16 go through float.
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/float_pool.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace lp_pool_op {

struct Norm {
  double p;

  template <typename Tag>
  void operator()(Tag, const Tensor& x, Tensor& y, const kernels::Window& w,
                  util::ThreadPool& pool) const {
    using T = typename Tag::type;
    const kernels::PoolWindows win(w);
    const int64_t len = win.row_length();
    const T pt = static_cast<T>(p), inv = static_cast<T>(1.0 / p);
    kernels::for_each_pool_row<T>(
        x, y, w, win, pool,
        [&win, len, p = p, pt, inv](const T* plane, T* out, std::span<const int64_t> image_rows,
                                    int64_t, int64_t) {
          std::fill(out, out + len, T(0));
          if (p == 2)
            win.fold_row(plane, image_rows, out, [](T a, T v) { return a + v * v; });
          else if (p == 1)
            win.fold_row(plane, image_rows, out, [](T a, T v) { return a + std::abs(v); });
          else
            win.fold_row(plane, image_rows, out,
                         [pt](T a, T v) { return a + std::pow(std::abs(v), pt); });
          for (int64_t j = 0; j < len; ++j)
            out[j] = p == 2 ? std::sqrt(out[j]) : (p == 1 ? out[j] : std::pow(out[j], inv));
        });
  }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  kernels::WindowAttrs attrs = read_pool_attrs(ctx, "LpPool");
  const ir::Attribute* a = ctx.attr("p");
  const double p = !a ? 2.0 : (a->kind == ir::Attribute::Kind::Float ? a->f : double(a->i));
  if (!(p > 0)) ctx.invalid("LpPool's p must be positive");
  return make_float_pool(std::move(attrs), "LpPool", Norm{p});
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, kernel_shape: "
     "ints?, p: float = 2.0, pads: ints?, strides: ints?"},
    {2,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, kernel_shape: "
     "ints, p: int = 2, pads: ints?, strides: ints?"},
    {11,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, kernel_shape: "
     "ints, p: int = 2, pads: ints?, strides: ints?"},
    {18,
     "X: T -> Y: T; T = floats; auto_pad: string = NOTSET, ceil_mode: int = 0, dilations: "
     "ints?, kernel_shape: ints, p: int = 2, pads: ints?, strides: ints?"},
    {22,
     "X: T -> Y: T; T = floats bfloat16; auto_pad: string = NOTSET, ceil_mode: int = 0, "
     "dilations: ints?, kernel_shape: ints, p: int = 2, pads: ints?, strides: ints?"}};

}  // namespace lp_pool_op
}  // namespace

OpDef def_LpPool() {
  using namespace lp_pool_op;
  return def_from_rows("", "LpPool", make, infer_pool, kRows);
}

}  // namespace bough::ops
