// OptionalHasElement: true when the input is present and not the empty optional. From
// opset 18 the input may be omitted (false) or be a plain tensor or sequence (true).
#include "ops/def_from_rows.h"
#include "ops/optional_input.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace optional_has_element_op {

class OptionalHasElement : public Kernel {
 public:
  void run(KernelIO& io) override { io.set_output(0, Tensor::scalar_bool(given_input(io, 0))); }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool has_input = !ctx.node.inputs.empty() && ctx.node.inputs[0];
  if (ctx.since < 18 && !has_input)
    ctx.invalid("OptionalHasElement before opset 18 requires its input");
  return std::make_unique<OptionalHasElement>();
}

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Bool, ir::Shape::of({})); }

constexpr SignatureText kRows[] = {
    {15, "input: O -> output: B; O = optional(all) optional(seq(all)), B = bool"},
    {18, "input?: O -> output: B; O = optional(all) optional(seq(all)) all seq(all), B = bool"},
    {28,
     "input?: O -> output: B; O = optional(all_ir13) optional(seq(all_ir13)) all_ir13 "
     "seq(all_ir13), B = bool"}};

}  // namespace optional_has_element_op
}  // namespace

OpDef def_OptionalHasElement() {
  using namespace optional_has_element_op;
  return def_from_rows("", "OptionalHasElement", make, infer, kRows);
}

}  // namespace bough::ops
