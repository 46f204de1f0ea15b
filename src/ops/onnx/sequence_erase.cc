// SequenceErase: the sequence without the tensor at `position` (the last one when the
// position is omitted). Positions run from -n to n-1; negative ones count from the back.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sequence_erase_op {

class SequenceErase : public Kernel {
 public:
  void run(KernelIO& io) override {
    const SequenceValue& seq = sequence_input(io, 0);
    const size_t n = seq.items.size();
    if (n == 0) fail(ErrorKind::BadInput, "", "cannot erase from an empty sequence");
    const size_t pos = io.has_input(1) ? read_position(io.value(1), n, false) : n - 1;
    std::vector<Value> items;
    items.reserve(n - 1);
    for (size_t i = 0; i < n; ++i)
      if (i != pos) items.push_back(seq.items[i]);
    io.set_output(0, Value::sequence(seq.elem, std::move(items)));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<SequenceErase>(); }

void infer(InferContext& ctx) { infer_same_as_first(ctx); }

constexpr SignatureText kRows[] = {
    {11, "input_sequence: S, position?: I -> output_sequence: S; S = seq(all), I = int32 int64"}};

}  // namespace sequence_erase_op
}  // namespace

OpDef def_SequenceErase() {
  using namespace sequence_erase_op;
  return def_from_rows("", "SequenceErase", make, infer, kRows);
}

}  // namespace bough::ops
