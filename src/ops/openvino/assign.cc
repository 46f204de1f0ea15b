// org.openvinotoolkit Assign-1: OpenVINO's Assign-3 and Assign-6. It sets the variable
// `variable_id` to input 0 (`new_value`) for the next run (when this run succeeds: see
// ops/variables.h) and returns input 0.
//
// Input 1 is the output of the ReadValue of the same variable, which OpenVINO's Assign does
// not have: it makes "read before it is written" a dependency of the graph, so every order
// the graph allows (the plan's, a pass's) runs the ReadValue first. The check (src/check/
// variable_rules.cc) makes sure it is that ReadValue (it is optional in the signature only
// so that a missing one gets the check's message); the OpenVINO writer drops it.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/variables.h"

namespace bough::ops {

namespace {
namespace assign_op {

void infer(InferContext& ctx) {
  const std::string id = ctx.attr_string("variable_id", "");
  if (id.empty()) ctx.invalid("variable_id is empty");
  const ir::Type& value = ctx.input_type(0);
  const ir::Type& variable = ctx.input_type(1);
  if (value.elem != ElemType::Undefined && variable.elem != ElemType::Undefined &&
      value.elem != variable.elem)
    ctx.invalid("Assign writes " + ir::to_string(value) + " to variable '" + id +
                "', which ReadValue reads as " + ir::to_string(variable));
  ctx.set_output(0, value);
}

class Assign : public Kernel {
 public:
  Assign(std::string id, bool borrowed) : var_(std::move(id)), borrowed_(borrowed) {}
  void run(KernelIO& io) override {
    Variables::Entry& e = var_.get("Assign");
    // The variable takes the input's buffer when nothing but this run's frame holds it. No
    // one writes into it then: kernels write their outputs through ir::reinit, which
    // makes a new buffer when another holder shares the old one (a buffer the plan keeps
    // for the next run included), and the session copies an output the variable shares
    // before returning it. A graph input is the caller's tensor, which its slot refers to
    // without holding it, so it is copied; so is a buffer something else holds too.
    const Tensor& in = io.input(0);
    e.pending = borrowed_ || !in.unique() ? in.clone() : in;
    e.written = true;
    io.set_output(0, io.value(0));
  }

 private:
  VariableRef var_;
  bool borrowed_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::string id = ctx.attr_string("variable_id", "");
  if (id.empty()) ctx.invalid("variable_id is empty");
  const ir::Edge* in = ctx.node.inputs.empty() ? nullptr : ctx.node.inputs[0];
  const bool borrowed =
      !in || in->origin == ir::Edge::Origin::Input || in->origin == ir::Edge::Origin::Capture;
  return std::make_unique<Assign>(std::move(id), borrowed);
}

constexpr SignatureText kRows[] = {
    {1,
     "new_value: T, read?: R -> output: T; T = all_ir13; R = all_ir13; "
     "variable_id: string"}};

}  // namespace assign_op
}  // namespace

OpDef def_OvAssign() {
  using namespace assign_op;
  return def_from_rows("org.openvinotoolkit", "Assign", make, infer, kRows);
}

}  // namespace bough::ops
