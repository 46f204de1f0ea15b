// GroupNormalization: the channels of X (N x C x D1..Dn) split into num_groups groups; each
// (batch, group) is normalized by its own mean and (biased) variance, then scaled and
// shifted: y = scale * (x - mean) / sqrt(var + epsilon) + bias. scale and bias hold one value
// per group in opset 18 and one per channel from opset 21 (see group_norm.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/group_norm.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace group_normalization_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

class GroupNormalization : public Kernel {
 public:
  GroupNormalization(int64_t groups, double epsilon, bool per_channel)
      : groups_(groups), epsilon_(epsilon), per_channel_(per_channel) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor& bias = io.input(2);
    if (x.rank() < 2) bad("GroupNormalization needs an input of rank 2 or more");
    if (x.dim(1) % groups_ != 0)
      bad(std::to_string(x.dim(1)) + " channels do not split into " + std::to_string(groups_) +
          " groups");
    const int64_t want = per_channel_ ? x.dim(1) : groups_;
    if (scale.numel() != want || bias.numel() != want)
      bad("GroupNormalization's scale and bias must hold " + std::to_string(want) + " values");
    if (scale.type() != x.type() || bias.type() != x.type())
      bad("GroupNormalization inputs have different element types");
    io.set_output(0, normalize_groups(x, scale, bias, groups_, per_channel_, epsilon_, io.pool(),
                                      "GroupNormalization"));
  }

 private:
  int64_t groups_;
  double epsilon_;
  bool per_channel_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t groups = ctx.attr_int("num_groups", 0);
  if (groups < 1) ctx.invalid("GroupNormalization needs a positive num_groups");
  return std::make_unique<GroupNormalization>(groups, ctx.attr_float("epsilon", 1e-5f),
                                              ctx.since >= 21);
}

constexpr SignatureText kRows[] = {
    {18,
     "X: T, scale: T, bias: T -> Y: T; T = floats bfloat16; epsilon: float = "
     "9.999999747378752e-06, num_groups: int"},
    {21,
     "X: T, scale: T, bias: T -> Y: T; T = floats bfloat16; epsilon: float = "
     "9.999999747378752e-06, num_groups: int, stash_type: int = 1"}};

}  // namespace group_normalization_op
}  // namespace

OpDef def_GroupNormalization() {
  using namespace group_normalization_op;
  return def_from_rows("", "GroupNormalization", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
