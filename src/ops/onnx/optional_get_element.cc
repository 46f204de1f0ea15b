// OptionalGetElement: the element of an optional input (an error when it is empty). From
// opset 18 a plain tensor or sequence input is returned as is.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace optional_get_element_op {

class OptionalGetElement : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Value& v = io.value(0);
    if (v.is_none()) fail(ErrorKind::BadInput, "", "the optional input is empty");
    io.set_output(0, v);
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<OptionalGetElement>(); }

void infer(InferContext& ctx) {
  const ir::Type& t = ctx.input_type(0);
  if (t.kind == ir::Type::Kind::Optional && t.inner)
    ctx.set_output(0, *t.inner);
  else if (t.kind != ir::Type::Kind::Optional)
    ctx.set_output(0, t);
}

constexpr SignatureText kRows[] = {
    {15, "input: O -> output: V; O = optional(all) optional(seq(all)), V = all seq(all)"},
    {18,
     "input: O -> output: V; O = optional(all) optional(seq(all)) all seq(all), V = all "
     "seq(all)"},
    {28,
     "input: O -> output: V; O = optional(all_ir13) optional(seq(all_ir13)) all_ir13 "
     "seq(all_ir13), V = all_ir13 seq(all_ir13)"}};

}  // namespace optional_get_element_op
}  // namespace

OpDef def_OptionalGetElement() {
  using namespace optional_get_element_op;
  return def_from_rows("", "OptionalGetElement", make, infer, kRows);
}

}  // namespace bough::ops
