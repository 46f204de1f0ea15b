// SimplifiedLayerNormalization-1, ONNX Runtime's RMSNorm: a contrib operator that ONNX Runtime
// registers in the default domain (version 1), where exporters put it. Over X's dims
// from `axis` on, Y = X * inv_std * scale with inv_std = 1 / sqrt(mean(X^2) + epsilon). The
// optional inv_std_var output keeps X's dims before `axis` (1 from there on), in stash_type.
#include "kernels/convert.h"
#include "kernels/layout.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/layer_norm_attrs.h"
#include "ops/microsoft/skip_norm.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace simplified_layer_normalization_op {
class SimplifiedLayerNormalization : public Kernel {
 public:
  explicit SimplifiedLayerNormalization(LayerNormAttrs attrs) : attrs_(attrs) {}
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const int64_t axis = kernels::normalize_axis(attrs_.axis, static_cast<int64_t>(x.rank()));
    microsoft::NormInputs in{&x, nullptr, &io.input(1), nullptr, nullptr};
    microsoft::NormOutputs r = microsoft::skip_normalize(in, axis, true, attrs_.epsilon, false,
                                                         io.pool(), "SimplifiedLayerNormalization");
    io.set_output(0, std::move(r.y));
    if (io.has_output(1)) io.set_output(1, kernels::cast(r.inv_std, attrs_.stash));
  }

 private:
  LayerNormAttrs attrs_;
};
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<SimplifiedLayerNormalization>(LayerNormAttrs::read(ctx));
}
void infer(InferContext& ctx) {
  microsoft::infer_skip_norm(ctx, ctx.attr_int("axis", -1), {1}, float_type_attr(ctx, "stash_type"),
                             0);
}
constexpr SignatureText kRows[] = {
    {1,
     "X: T, scale: T -> Y: T, inv_std_var?: U; T = float float16 double bfloat16, U = float "
     "double; axis: int = -1, epsilon: float = "
     "9.999999747378752e-06, stash_type: int = 1"}};

}  // namespace simplified_layer_normalization_op
}  // namespace

OpDef def_MsSimplifiedLayerNormalization() {
  using namespace simplified_layer_normalization_op;
  return def_from_rows("", "SimplifiedLayerNormalization", make, infer, kRows);
}

}  // namespace bough::ops
