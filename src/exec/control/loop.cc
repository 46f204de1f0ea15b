// Loop: runs `body` while the trip count and the condition allow, carrying N values from
// one iteration to the next and stacking K scan outputs along a new leading axis.
//
// Modes (spec table): M and cond both omitted runs until the body... never stops; M alone
// runs M times and ignores the body's condition output; cond alone runs while it holds;
// both stop at whichever comes first.
#include "exec/control/body_types.h"
#include "exec/control/subgraph.h"
#include "ir/storage.h"
#include "ops/def_from_rows.h"

namespace bough::ops {

namespace {
namespace loop_op {

class Loop : public Kernel {
 public:
  Loop(Body body, size_t carried, std::vector<StackItem> scan_items)
      : body_(std::move(body)), carried_(carried), scan_items_(std::move(scan_items)) {}

  void run(KernelIO& io) override {
    const bool has_trip = io.has_input(0);
    const bool has_cond = io.has_input(1);
    int64_t trip = 0;
    if (has_trip) {
      const Value& m = io.value(0);
      if (!m.is_tensor() || m.tensor().numel() != 1 || m.tensor().type() != ElemType::Int64)
        fail(ErrorKind::BadInput, "", "the trip count M must be one int64, got " + describe(m));
      trip = m.tensor().data<int64_t>()[0];
    }
    bool cond = has_cond ? read_condition(io.value(1), "the Loop condition") : true;

    std::vector<Value> state(carried_), next(carried_);
    for (size_t j = 0; j < carried_; ++j) state[j] = io.value(2 + j);
    std::vector<kernels::Stacker> scans(scan_items_.size(), kernels::Stacker(has_trip ? trip : -1));

    // The body reads the counter, the condition and the carried values in place; the
    // counter and condition tensors are rewritten whenever the body kept no reference.
    Value iter, cond_in;
    auto read_cond = [&](const exec::Plan& plan) {
      if (has_cond) cond = read_condition(plan.output(0), "the Loop body's condition output");
    };
    for (int64_t i = 0; (!has_trip || i < trip) && cond; ++i) {
      ir::reinit(iter.as_tensor(), ElemType::Int64, {});
      *iter.tensor().data<int64_t>() = i;
      ir::reinit(cond_in.as_tensor(), ElemType::Bool, {});
      *cond_in.tensor().data<bool>() = cond;
      body_.plan->bind_input(0, iter);
      body_.plan->bind_input(1, cond_in);
      body_.iterate(io, state, next, 2, 1, scans, read_cond);
    }
    for (size_t j = 0; j < carried_; ++j) io.set_output(j, std::move(state[j]));
    for (size_t k = 0; k < scans.size(); ++k)
      io.set_output(carried_ + k, scans[k].finish(scan_items_[k].elem, scan_items_[k].shape));
  }

 private:
  Body body_;
  size_t carried_;
  std::vector<StackItem> scan_items_;  // from the declared types, for empty scan outputs
};

// The type of one item of a scan output, for shaping an empty result: the body's declared
// output type, or else the Loop output's declared type without its leading axis.
ir::Type scan_item_type(const BuildContext& ctx, const ir::Graph& body, size_t body_out,
                        size_t node_out) {
  const ir::Type& inner = body.outputs[body_out]->type;
  if (inner.kind == ir::Type::Kind::Tensor && inner.shape.rank_known) return inner;
  const ir::Edge* outer = node_out < ctx.node.outputs.size() ? ctx.node.outputs[node_out] : nullptr;
  if (!outer || outer->type.kind != ir::Type::Kind::Tensor || !outer->type.shape.rank_known ||
      outer->type.shape.dims.empty())
    return inner;
  ir::Type item = outer->type;
  item.shape.dims.erase(item.shape.dims.begin());
  return item;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Graph& body = ctx.graph_attr("body");
  size_t carried = ctx.node.inputs.size() - 2;
  if (body.inputs.size() != 2 + carried)
    ctx.invalid("the Loop body takes " + std::to_string(body.inputs.size()) + " inputs; with " +
                std::to_string(carried) + " carried values it must take " +
                std::to_string(2 + carried) + " (iteration number, condition, carried values)");
  if (body.outputs.size() < 1 + carried)
    ctx.invalid("the Loop body yields " + std::to_string(body.outputs.size()) +
                " outputs; it must yield the condition and " + std::to_string(carried) +
                " carried values, then its scan outputs");
  size_t scans = body.outputs.size() - 1 - carried;
  if (ctx.node.outputs.size() > carried + scans)
    ctx.invalid("Loop has " + std::to_string(ctx.node.outputs.size()) +
                " outputs, its body yields " + std::to_string(carried + scans));
  std::vector<StackItem> scan_items;
  for (size_t k = 0; k < scans; ++k)
    scan_items.push_back(stack_item(scan_item_type(ctx, body, 1 + carried + k, carried + k)));
  return std::make_unique<Loop>(Body::compile(ctx, body), carried, std::move(scan_items));
}

// The body sees the iteration number, the condition and each carried value with its shape
// left open; the final carried values are the union of initial and returned types, the scan
// outputs the body's items stacked along a new first axis.
void infer(InferContext& ctx) {
  size_t carried = ctx.num_inputs() - 2;
  std::vector<ir::Type> body_inputs = {ir::Type::tensor(ElemType::Int64, ir::Shape::of({})),
                                       ir::Type::tensor(ElemType::Bool, ir::Shape::of({}))};
  for (size_t k = 0; k < carried; ++k) body_inputs.push_back(carried_type(ctx.input_type(2 + k)));
  std::vector<ir::Type> body = ctx.infer_subgraph(ctx.graph_attr("body"), body_inputs);
  if (body.size() < 1 + carried) return;  // the structural check says why
  for (size_t o = 0; o < ctx.num_outputs() && 1 + o < body.size(); ++o)
    ctx.set_output(o, o < carried ? final_carried_type(ctx, o, ctx.input_type(2 + o), body[1 + o])
                                  : stacked_type(body[1 + o], 0, ir::Dim::unknown()));
}

constexpr SignatureText kRows[] = {
    {1,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all; body: graph"},
    {11,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all; body: graph"},
    {13,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all seq(all); body: graph"},
    {16,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir4 seq(all_ir4) optional(all_ir4) optional(seq(all_ir4)); body: graph"},
    {19,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir9 seq(all_ir9) optional(all_ir9) optional(seq(all_ir4)); body: graph"},
    {21,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir10 seq(all_ir10) optional(all_ir10) optional(seq(all_ir4)); body: graph"},
    {23,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir11 seq(all_ir11) optional(all_ir11) optional(seq(all_ir4)); body: graph"},
    {24,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir12 seq(all_ir12) optional(all_ir12) optional(seq(all_ir4)); body: graph"},
    {25,
     "M?: I, cond?: B, v_initial**: V -> v_final_and_scan_outputs**: V; I = int64; B = bool; V "
     "= all_ir13 seq(all_ir13) optional(all_ir13) optional(seq(all_ir4)); body: graph"}};

}  // namespace loop_op
}  // namespace

OpDef def_Loop() {
  using namespace loop_op;
  // v_initial may be empty (ONNX gives it min_arity 0): M and cond are the only inputs.
  return def_from_rows("", "Loop", make, infer, kRows,
                       {.counts = ValueCounts{2, kVariadic, 1, kVariadic}});
}

}  // namespace bough::ops
