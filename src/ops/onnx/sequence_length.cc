// SequenceLength: the number of tensors in the sequence, as an int64 scalar.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sequence_length_op {

class SequenceLength : public Kernel {
 public:
  void run(KernelIO& io) override {
    const SequenceValue& seq = sequence_input(io, 0);
    io.set_output(0, Tensor::scalar_i64(static_cast<int64_t>(seq.items.size())));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<SequenceLength>(); }

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Int64, ir::Shape::of({})); }

constexpr SignatureText kRows[] = {{11, "input_sequence: S -> length: I; S = seq(all), I = int64"}};

}  // namespace sequence_length_op
}  // namespace

OpDef def_SequenceLength() {
  using namespace sequence_length_op;
  return def_from_rows("", "SequenceLength", make, infer, kRows);
}

}  // namespace bough::ops
