// Identity: the input, shared (tensors, sequences and optionals alike).
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace identity_op {
class Identity : public Kernel {
 public:
  void run(KernelIO& io) override {
    if (io.has_output(0)) io.output(0) = io.value(0);
  }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Identity>(); }
constexpr SignatureText kRows[] = {
    {1, "input: T -> output: T; T = all"},
    {13, "input: T -> output: T; T = all_ir4"},
    {14, "input: V -> output: V; V = all_ir4 seq(all)"},
    {16, "input: V -> output: V; V = all_ir4 seq(all) optional(all) optional(seq(all))"},
    {19, "input: V -> output: V; V = all_ir9 seq(all) optional(all) optional(seq(all))"},
    {21, "input: V -> output: V; V = all_ir10 seq(all) optional(all) optional(seq(all))"},
    {23, "input: V -> output: V; V = all_ir11 seq(all) optional(all) optional(seq(all))"},
    {24, "input: V -> output: V; V = all_ir12 seq(all) optional(all) optional(seq(all))"},
    {25, "input: V -> output: V; V = all_ir13 seq(all) optional(all) optional(seq(all))"}};

}  // namespace identity_op
}  // namespace

OpDef def_Identity() {
  using namespace identity_op;
  return def_from_rows("", "Identity", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
