// com.microsoft FastGelu-1: Gelu's tanh approximation of x + bias (bias optional, 1-D along
// x's last dimension): y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace fast_gelu_op {
class FastGelu : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor* bias = io.has_input(1) ? &io.input(1) : nullptr;
    io.set_output(0, microsoft::bias_map(io.input(0), bias, nullptr, io.pool(), "FastGelu",
                                         kernels::FastFn::GeluTanh, kernels::kGeluTanhWork));
  }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<FastGelu>(); }
constexpr SignatureText kRows[] = {
    {1, "X: T, bias?: T -> Y: T; T = float float16 double bfloat16"}};

}  // namespace fast_gelu_op
}  // namespace

const OpDef& def_MsFastGelu() {
  using namespace fast_gelu_op;
  static const OpDef def =
      def_from_rows("com.microsoft", "FastGelu", make, infer_same_as_first, kRows);
  return def;
}

}  // namespace bough::ops
