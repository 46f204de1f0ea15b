// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (float when
// absent), kept so later operators know it.
#include "ops/registry.h"

namespace bough::ops {

namespace {

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

}  // namespace

const OpDef& def_SequenceEmpty() {
  static const OpDef def{"",      "SequenceEmpty",
                         {11},    0,
                         0,       1,
                         1,       make,
                         nullptr, {{11, " -> output: S; S = seq(all); dtype: int?"}}};
  return def;
}

}  // namespace bough::ops
