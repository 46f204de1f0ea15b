#include "ops/training/optimizer.h"

#include "ops/onnx/nn_infer.h"

namespace bough::ops::training {

namespace {

[[noreturn]] void bad(const char* op, const std::string& message) {
  fail(ErrorKind::BadInput, "", std::string(op) + ": " + message);
}

bool is_optimized_type(ElemType t) { return t == ElemType::Float || t == ElemType::Double; }

// The name of input i (>= 2) of a node optimizing n tensors, for messages: "X2", "H1".
std::string operand_name(size_t i, size_t n, std::string_view states) {
  const size_t group = (i - 2) / n, index = (i - 2) % n + 1;
  const char letter = group == 0 ? 'X' : group == 1 ? 'G' : states[group - 2];
  return letter + std::to_string(index);
}

}  // namespace

Step read_step(const KernelIO& io, const char* op) {
  const Tensor& r = io.input(0);
  const Tensor& t = io.input(1);
  if (!is_optimized_type(r.type()))
    bad(op, "R must be float or double, got " + std::string(elem_name(r.type())));
  if (t.type() != ElemType::Int64)
    bad(op, "T must be int64, got " + std::string(elem_name(t.type())));
  for (const Tensor* s : {&r, &t})
    if (s->numel() != 1)
      bad(op, std::string(s == &r ? "R" : "T") + " must be a scalar, got shape " +
                  shape_string(s->shape()));
  return {r.get_double(0), t.data<int64_t>()[0]};
}

size_t tensor_count(const NodeView& node, std::string_view states) {
  const size_t ins = node.node.inputs.size(), outs = node.node.outputs.size();
  const size_t groups_in = 2 + states.size(), groups_out = 1 + states.size();
  const size_t n = ins >= 2 ? (ins - 2) / groups_in : 0;
  if (n == 0 || ins != 2 + n * groups_in || outs != n * groups_out) {
    std::string in_names = "X, G", out_names = "X";
    for (char c : states) in_names += std::string(", ") + c, out_names += std::string(", ") + c;
    node.invalid("takes R, T, then n each of " + in_names + " (2 + " + std::to_string(groups_in) +
                 "n inputs) and gives n each of " + out_names + " (" + std::to_string(groups_out) +
                 "n outputs), n >= 1; got " + std::to_string(ins) + " inputs and " +
                 std::to_string(outs) + " outputs");
  }
  return n;
}

void infer_optimizer(InferContext& ctx, std::string_view states) {
  const size_t n = tensor_count(ctx, states);
  for (size_t s = 0; s < 2; ++s) {
    const ir::Shape& shape = ctx.input_shape(s);
    if (!shape.rank_known) continue;
    for (const ir::Dim& d : shape.dims)
      if (d.is_known() && d.value != 1)
        ctx.invalid(std::string(s == 0 ? "R" : "T") + " must be a scalar");
  }
  for (size_t i = 0; i < n; ++i) {
    // X_i, G_i and every state of tensor i: one element type, one shape.
    ir::Type merged = ctx.input_type(2 + i);
    for (size_t group = 1; group < 2 + states.size(); ++group) {
      const size_t in = 2 + group * n + i;
      const ir::Type& t = ctx.input_type(in);
      if (t.kind != ir::Type::Kind::Tensor) continue;
      if (merged.kind != ir::Type::Kind::Tensor) {
        merged = t;
        continue;
      }
      if (t.elem != ElemType::Undefined && merged.elem != ElemType::Undefined &&
          t.elem != merged.elem)
        ctx.invalid(operand_name(in, n, states) + " is " + std::string(elem_name(t.elem)) +
                    " but " + operand_name(2 + i, n, states) + " is " +
                    std::string(elem_name(merged.elem)));
      if (merged.elem == ElemType::Undefined) merged.elem = t.elem;
      if (!t.shape.rank_known) continue;
      if (!merged.shape.rank_known) {
        merged.shape = t.shape;
        continue;
      }
      if (t.shape.dims.size() != merged.shape.dims.size())
        ctx.invalid(operand_name(in, n, states) + " and " + operand_name(2 + i, n, states) +
                    " differ in rank");
      for (size_t d = 0; d < t.shape.dims.size(); ++d)
        merged.shape.dims[d] =
            same_dim(ctx, merged.shape.dims[d], t.shape.dims[d], "dims of one tensor's operands");
    }
    if (merged.kind != ir::Type::Kind::Tensor) continue;
    for (size_t group = 0; group <= states.size(); ++group) ctx.set_output(group * n + i, merged);
  }
}

void check_operands(const KernelIO& io, const char* op, size_t n, std::string_view states,
                    size_t i) {
  const Tensor& x = io.input(2 + i);
  if (!is_optimized_type(x.type()))
    bad(op, operand_name(2 + i, n, states) + " must be float or double, got " +
                std::string(elem_name(x.type())));
  for (size_t group = 1; group < 2 + states.size(); ++group) {
    const size_t in = 2 + group * n + i;
    const Tensor& t = io.input(in);
    if (t.type() != x.type() || t.shape() != x.shape())
      bad(op, operand_name(in, n, states) + " (" + std::string(elem_name(t.type())) + " " +
                  shape_string(t.shape()) + ") does not match " + operand_name(2 + i, n, states) +
                  " (" + std::string(elem_name(x.type())) + " " + shape_string(x.shape()) + ")");
  }
}

}  // namespace bough::ops::training
