// The window functions of signal processing (HannWindow, HammingWindow, BlackmanWindow):
// w[n] = fn(n, N) for n in [0, size), N = size when periodic (the default), else size - 1.
// The output type is output_datatype (default float); values are computed in double.
#pragma once

#include <cmath>
#include <numbers>
#include <string_view>

#include "kernels/convert.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

template <double (*Fn)(double n, double N)>
class WindowKernel : public Kernel {
 public:
  WindowKernel(bool periodic, ElemType out) : periodic_(periodic), out_(out) {}

  void run(KernelIO& io) override {
    const int64_t size = kernels::read_int(io.input(0), "size");
    if (size < 0) fail(ErrorKind::BadInput, "", "window size must not be negative");
    Tensor w(ElemType::Double, Dims{size});
    const double N = static_cast<double>(periodic_ ? size : size - 1);
    for (int64_t n = 0; n < size; ++n)
      w.data<double>()[n] = N > 0 ? Fn(static_cast<double>(n), N) : 1.0;
    io.set_output(0, kernels::cast(w, out_));
  }

 private:
  bool periodic_;
  ElemType out_;
};

template <double (*Fn)(double n, double N)>
std::unique_ptr<Kernel> make_window(const BuildContext& ctx) {
  const int64_t code = ctx.attr_int("output_datatype", 1);
  if (!is_valid_elem_code(static_cast<int>(code)) ||
      code == static_cast<int64_t>(ElemType::String) ||
      code == static_cast<int64_t>(ElemType::Bool) || is_sub_byte(static_cast<ElemType>(code)))
    ctx.invalid("unsupported output_datatype " + std::to_string(code));
  return std::make_unique<WindowKernel<Fn>>(ctx.attr_int("periodic", 1) != 0,
                                            static_cast<ElemType>(code));
}

// A 1-D tensor of output_datatype, `size` long when the size is known.
inline void infer_window(InferContext& ctx) {
  const int64_t code = ctx.attr_int("output_datatype", 1);
  if (!is_valid_elem_code(static_cast<int>(code)))
    ctx.invalid("unsupported output_datatype " + std::to_string(code));
  ir::Shape shape = unknown_dims(1);
  if (auto size = int_values(ctx, 0); size && size->size() == 1) {
    if ((*size)[0] < 0) ctx.invalid("window size must not be negative");
    shape = known_shape({(*size)[0]});
  }
  ctx.set_output_tensor(0, static_cast<ElemType>(code), std::move(shape));
}

inline constexpr SignatureText kWindowRows[] = {
    {17,
     "size: T1 -> output: T2; T1 = int32 int64, T2 = numeric bfloat16; "
     "output_datatype: int = 1, periodic: int = 1"}};

// The OpDef of a window operator (all three came in opset 17 with one signature).
template <double (*Fn)(double n, double N)>
OpDef window_def(std::string_view name) {
  return def_from_rows("", name, make_window<Fn>, infer_window, kWindowRows);
}

// cos(k·2πn/N), the term every window above is made of.
inline double window_cos(double k, double n, double N) {
  return std::cos(k * 2 * std::numbers::pi * n / N);
}

}  // namespace bough::ops
