// com.microsoft QuickGelu-1: y = x * sigmoid(alpha * x), alpha 1.702 by default (the
// sigmoid approximation of Gelu CLIP models use).
#include "kernels/fast_math.h"
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace quick_gelu_op {
class QuickGelu : public Kernel {
 public:
  explicit QuickGelu(float alpha) : alpha_(alpha) {}
  void run(KernelIO& io) override {
    io.set_output(0, microsoft::bias_map(
                         io.input(0), nullptr, nullptr, io.pool(), "QuickGelu",
                         [a = alpha_](auto v) {
                           using T = decltype(v);
                           return v * kernels::fast_sigmoid(static_cast<T>(a) * v);
                         },
                         kernels::kSigmoidWork));
  }

 private:
  float alpha_;
};
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<QuickGelu>(ctx.attr_float("alpha", 1.702f));
}
constexpr SignatureText kRows[] = {
    {1, "X: T -> Y: T; T = float float16 double bfloat16; alpha: float = 1.702"}};

}  // namespace quick_gelu_op
}  // namespace

OpDef def_MsQuickGelu() {
  using namespace quick_gelu_op;
  return def_from_rows("com.microsoft", "QuickGelu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
