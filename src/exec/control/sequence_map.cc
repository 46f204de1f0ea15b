// SequenceMap: runs `body` once per position of the first input sequence. Sequence inputs
// give the body their item at that position (all must be as long as the first); tensor
// inputs are passed unchanged to every run. Each body output is collected into a sequence.
#include "exec/control/subgraph.h"
#include "ops/def_from_rows.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace sequence_map_op {

class SequenceMap : public Kernel {
 public:
  SequenceMap(Body body, std::vector<ElemType> declared)
      : body_(std::move(body)), declared_(std::move(declared)) {}

  void run(KernelIO& io) override {
    const size_t count = sequence_input(io, 0).items.size();
    const size_t n_in = body_.num_inputs();
    for (size_t j = 1; j < n_in; ++j) {
      const Value& v = io.value(j);
      if (v.is_sequence() && v.seq().items.size() != count)
        fail(ErrorKind::BadInput, "",
             "input " + std::to_string(j) + " has " + std::to_string(v.seq().items.size()) +
                 " items, but the first input sequence has " + std::to_string(count));
      if (!v.is_sequence() && !v.is_tensor())
        fail(ErrorKind::BadInput, "",
             "input " + std::to_string(j) + " must be a sequence or a tensor, got " + describe(v));
    }

    std::vector<std::vector<Value>> outs(declared_.size());
    for (auto& out : outs) out.reserve(count);
    exec::Plan& plan = *body_.plan;
    for (size_t i = 0; i < count; ++i) {
      for (size_t j = 0; j < n_in; ++j) {
        const Value& v = io.value(j);
        plan.bind_input(j, v.is_sequence() ? v.seq().items[i] : v);
      }
      body_.bind_captures(io);
      plan.run(io.context());
      for (size_t k = 0; k < outs.size(); ++k) {
        Value v = plan.take_output(k);
        if (!v.is_tensor())
          fail(ErrorKind::BadInput, "",
               "body output " + std::to_string(k) + " must be a tensor, got " + describe(v));
        if (!outs[k].empty())
          check_elem_type(outs[k][0].tensor().type(), v.tensor(),
                          "body output " + std::to_string(k) + " at position " + std::to_string(i));
        outs[k].push_back(std::move(v));
      }
      plan.reset();
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      const ElemType elem = outs[k].empty() ? declared_[k] : outs[k][0].tensor().type();
      io.set_output(k, Value::sequence(elem, std::move(outs[k])));
    }
  }

 private:
  Body body_;
  std::vector<ElemType> declared_;  // element type of each output, for empty sequences
};

// The element type of a body output as declared: by the node's output (a sequence of
// tensors) or by the body's output (a tensor); float when neither says.
ElemType declared_elem(const ir::Edge* node_out, const ir::Edge* body_out) {
  if (node_out && node_out->type.kind == ir::Type::Kind::Sequence && node_out->type.inner &&
      node_out->type.inner->kind == ir::Type::Kind::Tensor &&
      node_out->type.inner->elem != ElemType::Undefined)
    return node_out->type.inner->elem;
  if (body_out->type.kind == ir::Type::Kind::Tensor && body_out->type.elem != ElemType::Undefined)
    return body_out->type.elem;
  return ElemType::Float;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Graph& body = ctx.graph_attr("body");
  const size_t n_in = ctx.node.inputs.size(), n_out = ctx.node.outputs.size();
  if (body.inputs.size() != n_in || body.outputs.size() != n_out)
    ctx.invalid("SequenceMap has " + std::to_string(n_in) + " inputs and " + std::to_string(n_out) +
                " outputs, but its body takes " + std::to_string(body.inputs.size()) +
                " and yields " + std::to_string(body.outputs.size()));
  std::vector<ElemType> declared;
  for (size_t k = 0; k < n_out; ++k)
    declared.push_back(declared_elem(ctx.node.outputs[k], body.outputs[k]));
  return std::make_unique<SequenceMap>(Body::compile(ctx, body), std::move(declared));
}

// The body sees one element of each sequence input and every tensor input whole; each body
// output is gathered into a sequence.
void infer(InferContext& ctx) {
  std::vector<ir::Type> body_inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const ir::Type& t = ctx.input_type(i);
    body_inputs.push_back(t.kind == ir::Type::Kind::Sequence && t.inner ? *t.inner : t);
  }
  const ir::Graph& body = ctx.graph_attr("body");
  if (body.inputs.size() != ctx.num_inputs() || body.outputs.size() != ctx.num_outputs())
    ctx.invalid("SequenceMap has " + std::to_string(ctx.num_inputs()) + " inputs and " +
                std::to_string(ctx.num_outputs()) + " outputs, but its body takes " +
                std::to_string(body.inputs.size()) + " and yields " +
                std::to_string(body.outputs.size()));
  std::vector<ir::Type> outs = ctx.infer_subgraph(body, body_inputs);
  for (size_t o = 0; o < ctx.num_outputs() && o < outs.size(); ++o)
    ctx.set_output(o, ir::Type::wrap(ir::Type::Kind::Sequence, outs[o]));
}

constexpr SignatureText kRows[] = {
    {17,
     "input_sequence: S, additional_inputs**: V -> out_sequence**: O; S = "
     "seq(all), V = all seq(all), O = seq(all); body: graph"}};

}  // namespace sequence_map_op
}  // namespace

OpDef def_SequenceMap() {
  using namespace sequence_map_op;
  // additional_inputs may be empty (ONNX gives it min_arity 0).
  return def_from_rows("", "SequenceMap", make, infer, kRows,
                       {.counts = ValueCounts{1, kVariadic, 1, kVariadic}});
}

}  // namespace bough::ops
