// SequenceAt: the tensor at `position` (from -n to n-1; negative counts from the back).
// The tensor shares its buffer with the sequence's.
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace sequence_at_op {

class SequenceAt : public Kernel {
 public:
  void run(KernelIO& io) override {
    const SequenceValue& seq = sequence_input(io, 0);
    io.set_output(0, seq.items[read_position(io.value(1), seq.items.size(), false)]);
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<SequenceAt>(); }

void infer(InferContext& ctx) { ctx.set_output(0, sequence_infer::element_of(ctx.input_type(0))); }

constexpr SignatureText kRows[] = {
    {11, "input_sequence: S, position: I -> tensor: T; S = seq(all), T = all, I = int32 int64"}};

}  // namespace sequence_at_op
}  // namespace

OpDef def_SequenceAt() {
  using namespace sequence_at_op;
  return def_from_rows("", "SequenceAt", make, infer, kRows);
}

}  // namespace bough::ops
