// SequenceConstruct: a sequence of the input tensors, which share one element type.
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace sequence_construct_op {

class SequenceConstruct : public Kernel {
 public:
  void run(KernelIO& io) override {
    std::vector<Value> items;
    items.reserve(io.num_inputs());
    ElemType elem = ElemType::Undefined;
    for (size_t i = 0; i < io.num_inputs(); ++i) {
      const Tensor& t = io.input(i);
      check_elem_type(elem, t, "input " + std::to_string(i));
      elem = t.type();
      items.emplace_back(t);
    }
    io.set_output(0, Value::sequence(elem, std::move(items)));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<SequenceConstruct>(); }

void infer(InferContext& ctx) {
  ir::Type element;
  for (size_t i = 0; i < ctx.num_inputs(); ++i)
    element = sequence_infer::cover(element, ctx.input_type(i));
  ctx.set_output(0, sequence_infer::seq_of(std::move(element)));
}

constexpr SignatureText kRows[] = {{11, "inputs*: T -> output_sequence: S; T = all, S = seq(all)"}};

}  // namespace sequence_construct_op
}  // namespace

OpDef def_SequenceConstruct() {
  using namespace sequence_construct_op;
  return def_from_rows("", "SequenceConstruct", make, infer, kRows);
}

}  // namespace bough::ops
