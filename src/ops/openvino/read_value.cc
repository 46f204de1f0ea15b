// org.openvinotoolkit ReadValue-1: OpenVINO's ReadValue-3 and ReadValue-6 (stateful models).
// It returns the value of the variable `variable_id` as the last successful run's Assign left
// it; on a session's first run and after Session::reset_state(), its initial value: input 0
// (`init_value`) when given, else zeros of `variable_type` and `variable_shape` (as OpenVINO's
// op class evaluates it, src/core/src/op/read_value.cpp). The variables live in the session
// (ops/variables.h).
//
// Attributes, as the OpenVINO reader writes them: variable_id (string); variable_type (an
// ONNX element type code, 0 for OpenVINO's `dynamic`) and variable_shape (-1 a dynamic dim;
// absent, a dynamic rank), both absent for ReadValue-3, whose variable takes the type of its
// required init_value.
#include <cstring>
#include <optional>
#include <string>

#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/variables.h"

namespace bough::ops {

namespace {
namespace read_value_op {

// The variable's declared type: element type (Undefined for dynamic) and shape.
struct Declared {
  bool v6 = false;  // variable_type given (ReadValue-6)
  ElemType elem = ElemType::Undefined;
  ir::Shape shape = ir::Shape::unknown_rank();
};

Declared declared(const NodeView& v) {
  Declared d;
  if (const ir::Attribute* t = v.attr("variable_type")) {
    d.v6 = true;
    if (t->i != 0 && !is_valid_elem_code(static_cast<int>(t->i)))
      v.invalid("variable_type " + std::to_string(t->i) + " is not an element type");
    d.elem = static_cast<ElemType>(t->i);
  }
  if (v.has_attr("variable_shape")) {
    d.shape = ir::Shape::of({});
    for (int64_t x : v.attr_ints("variable_shape")) {
      if (x < -1) v.invalid("variable_shape holds " + std::to_string(x));
      d.shape.dims.push_back(x < 0 ? ir::Dim::unknown() : ir::Dim::known(x));
    }
  }
  return d;
}

bool is_static(const ir::Shape& s) {
  if (!s.rank_known) return false;
  for (const ir::Dim& d : s.dims)
    if (!d.is_known()) return false;
  return true;
}

std::string variable_of(const NodeView& v) {
  std::string id = v.attr_string("variable_id", "");
  if (id.empty()) v.invalid("variable_id is empty");
  return id;
}

void infer(InferContext& ctx) {
  const std::string id = variable_of(ctx);
  const Declared d = declared(ctx);
  const std::string var = "variable '" + id + "'";
  if (!ctx.has_input(0)) {
    if (!d.v6 || d.elem == ElemType::Undefined || d.elem == ElemType::String || !is_static(d.shape))
      ctx.invalid(var + " has no initial value: without init_value its variable_type and " +
                  "variable_shape must be static, for the zeros of the first run");
    ctx.set_output_tensor(0, d.elem, d.shape);
    return;
  }
  const ir::Type& init = ctx.input_type(0);
  if (!d.v6) {  // ReadValue-3: the variable is what init_value is
    ctx.set_output(0, init);
    return;
  }
  if (d.elem != ElemType::Undefined && init.elem != ElemType::Undefined && init.elem != d.elem)
    ctx.invalid(var + " is of type " + std::string(elem_name(d.elem)) +
                ", but its init_value (input 0) is of type " + std::string(elem_name(init.elem)));
  if (d.shape.rank_known && init.shape.rank_known) {
    bool fits = d.shape.dims.size() == init.shape.dims.size();
    for (size_t i = 0; fits && i < d.shape.dims.size(); ++i)
      fits = !d.shape.dims[i].is_known() || !init.shape.dims[i].is_known() ||
             d.shape.dims[i].value == init.shape.dims[i].value;
    if (!fits)
      ctx.invalid(var + " has shape " + ir::to_string(d.shape) +
                  ", which does not take its init_value's " + ir::to_string(init.shape));
  }
  // OpenVINO's op class: a variable of dynamic type and rank (older IR) takes init_value's.
  if (d.elem == ElemType::Undefined && !d.shape.rank_known) {
    ctx.set_output(0, init);
    return;
  }
  ctx.set_output_tensor(0, d.elem != ElemType::Undefined ? d.elem : init.elem, d.shape);
}

class ReadValue : public Kernel {
 public:
  ReadValue(std::string id, std::optional<Tensor> zeros)
      : var_(std::move(id)), zeros_(std::move(zeros)) {}
  void run(KernelIO& io) override {
    Variables::Entry& e = var_.get("ReadValue");
    if (e.set)
      io.set_output(0, e.value);
    else if (io.has_input(0))
      io.set_output(0, io.value(0));
    else
      io.set_output(0, Value(*zeros_));
  }

 private:
  VariableRef var_;
  std::optional<Tensor> zeros_;  // the first run's value when there is no init_value
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::string id = variable_of(ctx);
  std::optional<Tensor> zeros;
  if (ctx.node.inputs.empty() || !ctx.node.inputs[0]) {
    const Declared d = declared(ctx);
    if (d.elem == ElemType::Undefined || d.elem == ElemType::String || !is_static(d.shape))
      ctx.invalid("variable '" + id + "' has no initial value (no init_value, and no static " +
                  "variable_type and variable_shape)");
    std::vector<int64_t> dims;
    for (const ir::Dim& x : d.shape.dims) dims.push_back(x.value);
    zeros = Tensor(d.elem, Dims(std::span<const int64_t>(dims)));
    if (zeros->nbytes()) std::memset(zeros->raw(), 0, zeros->nbytes());
  }
  return std::make_unique<ReadValue>(std::move(id), std::move(zeros));
}

constexpr SignatureText kRows[] = {
    {1,
     "init_value?: T -> value: T; T = all_ir13; variable_id: string, variable_type: int?, "
     "variable_shape: ints?"}};

}  // namespace read_value_op
}  // namespace

OpDef def_OvReadValue() {
  using namespace read_value_op;
  return def_from_rows("org.openvinotoolkit", "ReadValue", make, infer, kRows);
}

}  // namespace bough::ops
