// InstanceNormalization: y = scale[c] * (x - mean) / sqrt(var + epsilon) + B[c], with mean
// and (biased) variance taken over the spatial elements of each (batch, channel) plane of X
// (N x C x D1..Dn): GroupNormalization with one group per channel (see group_norm.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/group_norm.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace instance_normalization_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

class InstanceNormalization : public Kernel {
 public:
  explicit InstanceNormalization(double epsilon) : epsilon_(epsilon) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor& bias = io.input(2);
    if (x.rank() < 2) bad("InstanceNormalization needs an input of rank 2 or more");
    if (scale.numel() != x.dim(1) || bias.numel() != x.dim(1))
      bad("InstanceNormalization's scale and B must hold " + std::to_string(x.dim(1)) + " values");
    if (scale.type() != x.type() || bias.type() != x.type())
      bad("InstanceNormalization inputs have different element types");
    io.set_output(0, normalize_groups(x, scale, bias, x.dim(1), true, epsilon_, io.pool(),
                                      "InstanceNormalization"));
  }

 private:
  double epsilon_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<InstanceNormalization>(ctx.attr_float("epsilon", 1e-5f));
}

constexpr SignatureText kRows[] = {
    {1,
     "input: T, scale: T, B: T -> output: T; T = floats; consumed_inputs: "
     "ints?, epsilon: float = 9.999999747378752e-06"},
    {6,
     "input: T, scale: T, B: T -> output: T; T = floats; epsilon: float = "
     "9.999999747378752e-06"},
    {22,
     "input: T, scale: T, B: T -> output: T; T = floats bfloat16; epsilon: "
     "float = 9.999999747378752e-06"}};

}  // namespace instance_normalization_op
}  // namespace

OpDef def_InstanceNormalization() {
  using namespace instance_normalization_op;
  return def_from_rows("", "InstanceNormalization", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
