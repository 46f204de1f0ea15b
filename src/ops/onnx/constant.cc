// Constant: a tensor from exactly one of the attributes value, value_float(s),
// value_int(s), value_string(s) (sparse_value arrives as a dense tensor).
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace constant_op {
class Constant : public Kernel {
 public:
  explicit Constant(Tensor value) : value_(std::move(value)) {}
  void run(KernelIO& io) override { io.set_output(0, value_); }

 private:
  Tensor value_;
};

Tensor value_of(const BuildContext& ctx) {
  using K = ir::Attribute::Kind;
  std::vector<Tensor> found;
  for (const char* name : {"value", "sparse_value", "value_float", "value_floats", "value_int",
                           "value_ints", "value_string", "value_strings"}) {
    const ir::Attribute* a = ctx.attr(name);
    if (!a) continue;
    switch (a->kind) {
      case K::Tensor:
      case K::SparseTensor:
        found.push_back(a->t);
        break;
      case K::Float:
        found.push_back(Tensor::from_vector<float>(ElemType::Float, {}, {a->f}));
        break;
      case K::Floats:
        found.push_back(Tensor::from_vector<float>(
            ElemType::Float, {static_cast<int64_t>(a->floats.size())}, a->floats));
        break;
      case K::Int:
        found.push_back(Tensor::scalar_i64(a->i));
        break;
      case K::Ints:
        found.push_back(Tensor::from_vector<int64_t>(
            ElemType::Int64, {static_cast<int64_t>(a->ints.size())}, a->ints));
        break;
      case K::String: {
        Tensor t(ElemType::String, {});
        t.strings()[0] = a->s;
        found.push_back(t);
        break;
      }
      case K::Strings: {
        Tensor t(ElemType::String, {static_cast<int64_t>(a->strings.size())});
        for (size_t i = 0; i < a->strings.size(); ++i) t.strings()[i] = a->strings[i];
        found.push_back(t);
        break;
      }
      default:
        ctx.invalid(std::string("attribute ") + name + " has the wrong type");
    }
  }
  if (found.size() != 1)
    ctx.invalid("Constant needs exactly one value attribute, found " +
                std::to_string(found.size()));
  return found[0];
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Constant>(value_of(ctx));
}
void infer(InferContext& ctx) {
  const auto list = [&](ElemType e, size_t n) {
    ctx.set_output_tensor(0, e, known_shape({static_cast<int64_t>(n)}));
  };
  const ir::Attribute* a = ctx.attr("value");
  if (!a) a = ctx.attr("sparse_value");
  if (a) {
    ctx.set_output_value(0, a->t);
  } else if (const ir::Attribute* f = ctx.attr("value_float")) {
    ctx.set_output_value(0, Tensor::from_vector(ElemType::Float, Dims{}, std::vector<float>{f->f}));
  } else if (const ir::Attribute* fs = ctx.attr("value_floats")) {
    ctx.set_output_value(
        0, Tensor::from_vector(ElemType::Float, Dims{static_cast<int64_t>(fs->floats.size())},
                               fs->floats));
  } else if (const ir::Attribute* i = ctx.attr("value_int")) {
    ctx.set_output_value(0, Tensor::scalar_i64(i->i));
  } else if (const ir::Attribute* is = ctx.attr("value_ints")) {
    ctx.set_output_value(
        0, Tensor::from_vector(ElemType::Int64, Dims{static_cast<int64_t>(is->ints.size())},
                               is->ints));
  } else if (ctx.has_attr("value_string")) {
    ctx.set_output_tensor(0, ElemType::String, ir::Shape::of({}));
  } else if (const ir::Attribute* ss = ctx.attr("value_strings")) {
    list(ElemType::String, ss->strings.size());
  }
}

constexpr SignatureText kRows[] = {
    {1, " -> output: T; T = floats; value: tensor"},
    {9, " -> output: T; T = all; value: tensor"},
    {11, " -> output: T; T = all; sparse_value: sparse_tensor?, value: tensor?"},
    {12,
     " -> output: T; T = all; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {13,
     " -> output: T; T = all_ir4; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {19,
     " -> output: T; T = all_ir9; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {21,
     " -> output: T; T = all_ir10; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {23,
     " -> output: T; T = all_ir11; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {24,
     " -> output: T; T = all_ir12; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"},
    {25,
     " -> output: T; T = all_ir13; sparse_value: sparse_tensor?, value: tensor?, value_float: "
     "float?, value_floats: floats?, value_int: int?, value_ints: ints?, value_string: string?, "
     "value_strings: strings?"}};

}  // namespace constant_op
}  // namespace

OpDef def_Constant() {
  using namespace constant_op;
  return def_from_rows("", "Constant", make, infer, kRows);
}

}  // namespace bough::ops
