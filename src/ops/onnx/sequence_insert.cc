// SequenceInsert: the sequence with `tensor` inserted before `position` (at the back when
// the position is omitted). Positions run from -n to n; negative ones count from the back.
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace sequence_insert_op {

class SequenceInsert : public Kernel {
 public:
  void run(KernelIO& io) override {
    const SequenceValue& seq = sequence_input(io, 0);
    const Tensor& t = io.input(1);
    check_elem_type(seq.elem, t, "the inserted tensor");
    const size_t n = seq.items.size();
    const size_t pos = io.has_input(2) ? read_position(io.value(2), n, true) : n;
    std::vector<Value> items;
    items.reserve(n + 1);
    items.insert(items.end(), seq.items.begin(), seq.items.begin() + static_cast<ptrdiff_t>(pos));
    items.emplace_back(t);
    items.insert(items.end(), seq.items.begin() + static_cast<ptrdiff_t>(pos), seq.items.end());
    io.set_output(0, Value::sequence(t.type(), std::move(items)));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<SequenceInsert>(); }

void infer(InferContext& ctx) {
  const ir::Type& seq = ctx.input_type(0);
  if (seq.kind != ir::Type::Kind::Sequence) {
    ctx.set_output(0, sequence_infer::seq_of(ctx.input_type(1)));
    return;
  }
  ctx.set_output(0, sequence_infer::seq_of(
                        sequence_infer::cover(sequence_infer::element_of(seq), ctx.input_type(1))));
}

constexpr SignatureText kRows[] = {
    {11,
     "input_sequence: S, tensor: T, position?: I -> output_sequence: S; T = "
     "all, S = seq(all), I = int32 int64"}};

}  // namespace sequence_insert_op
}  // namespace

OpDef def_SequenceInsert() {
  using namespace sequence_insert_op;
  return def_from_rows("", "SequenceInsert", make, infer, kRows);
}

}  // namespace bough::ops
