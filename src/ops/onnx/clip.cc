// Clip: y = min(max(x, min), max). The bounds are attributes before opset 11 and optional
// scalar inputs from 11; when min > max every element becomes max. NaN stays NaN.
#include <limits>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/optional_input.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace clip_op {

template <typename T>
auto clamp_to(T lo, T hi) {
  return [lo, hi](T v) {
    const T r = v < lo ? lo : v;
    return r > hi ? hi : r;
  };
}

// Bound input i: a one-element tensor of x's type, or null when omitted.
const Tensor* bound_input(const KernelIO& io, size_t i) {
  if (!given_input(io, i)) return nullptr;
  const Tensor& b = io.input(i);
  if (b.type() != io.input(0).type()) type_mismatch(io.input(0), b);
  if (b.numel() != 1)
    fail(ErrorKind::BadInput, "",
         "Clip bounds must be scalars, got shape " + shape_string(b.shape()));
  return &b;
}

class ClipInputs : public Kernel {
 public:
  void run(KernelIO& io) override {
    // Without a bound, float16/bfloat16 clamp to the largest float, which rounds back to
    // infinity.
    auto clip = [&](const Tensor& x, const Tensor* lo_in, const Tensor* hi_in) {
      const ElemType t = x.type();
      return kernels::visit_numeric(t, "Clip", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T lo = lo_in ? lo_in->data<T>()[0] : std::numeric_limits<T>::lowest();
        const T hi = hi_in ? hi_in->data<T>()[0] : std::numeric_limits<T>::max();
        return kernels::unary_map<T, T>(x, t, io.pool(), clamp_to(lo, hi));
      });
    };
    io.set_output(
        0, kernels::through_float(clip, io.input(0), bound_input(io, 1), bound_input(io, 2)));
  }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  if (ctx.since >= 11) return std::make_unique<ClipInputs>();
  const float lo = ctx.attr_float("min", std::numeric_limits<float>::lowest());
  const float hi = ctx.attr_float("max", std::numeric_limits<float>::max());
  return make_float_map("Clip", [lo, hi](auto v) {
    using T = decltype(v);
    return clamp_to(static_cast<T>(lo), static_cast<T>(hi))(v);
  });
}

constexpr SignatureText kRows[] = {
    {1, "input: T -> output: T; T = floats; consumed_inputs: ints?, max: float?, min: float?"},
    {6,
     "input: T -> output: T; T = floats; max: float = 3.4028234663852886e+38, min: float = "
     "-3.4028234663852886e+38"},
    {11, "input: T, min?: T, max?: T -> output: T; T = floats"},
    {12, "input: T, min?: T, max?: T -> output: T; T = numeric"},
    {13, "input: T, min?: T, max?: T -> output: T; T = numeric bfloat16"}};

}  // namespace clip_op
}  // namespace

OpDef def_Clip() {
  using namespace clip_op;
  return def_from_rows("", "Clip", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
