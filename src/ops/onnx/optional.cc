// Optional: an optional holding the input, or the empty optional when there is no input.
// An optional with an element is the element itself at run time; the `type` attribute
// (the element's type) is what an empty one has, and must match the input when both exist.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace optional_op {

class Optional : public Kernel {
 public:
  explicit Optional(ir::Type type) : type_(std::move(type)) {}

  void run(KernelIO& io) override {
    if (!io.has_input(0)) {
      io.set_output(0, Value::none());
      return;
    }
    const Value& v = io.value(0);
    if (type_.defined() && !matches(v))
      fail(ErrorKind::BadInput, "",
           "the input is " + describe(v) + ", but the type attribute says " + ir::to_string(type_));
    io.set_output(0, v);
  }

 private:
  // The kind and element type agree (shapes are left to the static type checks).
  bool matches(const Value& v) const {
    if (v.is_tensor())
      return type_.kind == ir::Type::Kind::Tensor && elem_ok(type_, v.tensor().type());
    if (!v.is_sequence() || type_.kind != ir::Type::Kind::Sequence || !type_.inner) return false;
    return type_.inner->kind != ir::Type::Kind::Tensor || elem_ok(*type_.inner, v.seq().elem);
  }
  static bool elem_ok(const ir::Type& t, ElemType e) {
    return t.elem == ElemType::Undefined || e == ElemType::Undefined || t.elem == e;
  }

  ir::Type type_;  // undefined when the attribute is absent
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Attribute* type = ctx.attr("type");
  if (type && type->kind != ir::Attribute::Kind::TypeProto)
    ctx.invalid("the 'type' attribute must be a type");
  const bool has_input = !ctx.node.inputs.empty() && ctx.node.inputs[0];
  if (!has_input && !type) ctx.invalid("Optional without an input needs the 'type' attribute");
  if (type && type->tp.kind != ir::Type::Kind::Tensor && type->tp.kind != ir::Type::Kind::Sequence)
    ctx.invalid("the element type of an optional must be a tensor or a sequence, got " +
                ir::to_string(type->tp));
  return std::make_unique<Optional>(type ? type->tp : ir::Type{});
}

void infer(InferContext& ctx) {
  if (ctx.has_input(0)) {
    ctx.set_output(0, ir::Type::wrap(ir::Type::Kind::Optional, ctx.input_type(0)));
  } else if (const ir::Attribute* type = ctx.attr("type")) {
    ctx.set_output(0, ir::Type::wrap(ir::Type::Kind::Optional, type->tp));
  } else {
    ctx.invalid("Optional needs an input or the attribute 'type'");
  }
}

constexpr SignatureText kRows[] = {
    {15,
     "input?: V -> output: O; V = all seq(all), O = optional(all) "
     "optional(seq(all)); type: type_proto?"},
    {28,
     "input?: V -> output: O; V = all_ir13 seq(all_ir13), O = optional(all_ir13) "
     "optional(seq(all_ir13)); type: type_proto?"}};

}  // namespace optional_op
}  // namespace

OpDef def_Optional() {
  using namespace optional_op;
  return def_from_rows("", "Optional", make, infer, kRows);
}

}  // namespace bough::ops
