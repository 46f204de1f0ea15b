// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (float when
// absent), kept so later operators know it.
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace sequence_empty_op {

class SequenceEmpty : public Kernel {
 public:
  explicit SequenceEmpty(ElemType elem) : elem_(elem) {}
  void run(KernelIO& io) override { io.set_output(0, Value::sequence(elem_, {})); }

 private:
  ElemType elem_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t dtype = ctx.attr_int("dtype", static_cast<int64_t>(ElemType::Float));
  if (dtype < 0 || dtype > kLastElemType || !is_valid_elem_code(static_cast<int>(dtype)))
    ctx.invalid("dtype " + std::to_string(dtype) + " is not a tensor element type");
  return std::make_unique<SequenceEmpty>(static_cast<ElemType>(dtype));
}

void infer(InferContext& ctx) {
  ElemType elem = ElemType::Float;
  if (ctx.has_attr("dtype")) {
    const int64_t code = ctx.attr_int("dtype", 0);
    if (!is_valid_elem_code(static_cast<int>(code)))
      ctx.invalid("dtype is not an element type: " + std::to_string(code));
    elem = static_cast<ElemType>(code);
  }
  ctx.set_output(0, sequence_infer::seq_of(ir::Type::tensor(elem)));
}

constexpr SignatureText kRows[] = {{11, " -> output: S; S = seq(all); dtype: int?"}};

}  // namespace sequence_empty_op
}  // namespace

OpDef def_SequenceEmpty() {
  using namespace sequence_empty_op;
  return def_from_rows("", "SequenceEmpty", make, infer, kRows);
}

}  // namespace bough::ops
