// Scan: runs `body` once per position along the scan axis of M scan inputs, carrying N
// state values and stacking K scan outputs. Version 8 scans every batch entry (axis 0 is
// the batch, axis 1 the sequence, with optional sequence_lens); version 9 on has per-input
// axes and directions and no batch. Slices along axis 0 are views, not copies. In Scan-8 a
// batch entry with a shorter sequence_lens scans (and reverses) only its first items and
// its scan outputs are padded with zeros to the full length, as ONNX Runtime does.
#include <algorithm>
#include <cstring>

#include "check/control_flow_rules.h"
#include "exec/control/body_types.h"
#include "exec/control/subgraph.h"
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace scan_op {

struct ScanSpec {
  size_t states = 0, scan_inputs = 0, scan_outputs = 0;
  std::vector<int64_t> in_axes, in_reverse, out_axes, out_reverse;
};

class Scan : public Kernel {
 public:
  Scan(Body body, ScanSpec spec, std::vector<StackItem> out_items, bool batched)
      : body_(std::move(body)),
        spec_(std::move(spec)),
        out_items_(std::move(out_items)),
        batched_(batched) {}

  void run(KernelIO& io) override {
    if (batched_) return run_batched(io);
    std::vector<Value> states(spec_.states);
    std::vector<Tensor> inputs;
    for (size_t j = 0; j < spec_.states; ++j) states[j] = io.value(j);
    for (size_t j = 0; j < spec_.scan_inputs; ++j) inputs.push_back(io.input(spec_.states + j));
    std::vector<Tensor> outs = scan(io, states, inputs, spec_.in_axes, -1);
    for (size_t j = 0; j < spec_.states; ++j) io.set_output(j, std::move(states[j]));
    for (size_t k = 0; k < outs.size(); ++k) {
      Tensor t = std::move(outs[k]);
      int64_t axis = kernels::normalize_axis(spec_.out_axes[k], static_cast<int64_t>(t.rank()));
      io.set_output(spec_.states + k, kernels::move_axis(t, 0, axis));
    }
  }

 private:
  // One scan over `inputs` along `axes`; states are updated in place. Returns each scan
  // output stacked along a new axis 0, in output-direction order. `length` < 0: the
  // inputs' extent.
  std::vector<Tensor> scan(KernelIO& io, std::vector<Value>& states,
                           const std::vector<Tensor>& inputs, const std::vector<int64_t>& axes,
                           int64_t length) {
    std::vector<int64_t> ax(inputs.size());
    int64_t extent = -1;
    for (size_t j = 0; j < inputs.size(); ++j) {
      ax[j] = kernels::normalize_axis(axes[j], static_cast<int64_t>(inputs[j].rank()));
      int64_t len = inputs[j].dim(static_cast<size_t>(ax[j]));
      if (extent >= 0 && len != extent)
        fail(ErrorKind::BadInput, "",
             "scan inputs differ in length along their scan axes: " + std::to_string(extent) +
                 " and " + std::to_string(len));
      extent = len;
    }
    if (length < 0) length = std::max<int64_t>(extent, 0);
    std::vector<kernels::Stacker> stacks(spec_.scan_outputs, kernels::Stacker(length));
    std::vector<Value> slices(inputs.size()), next(spec_.states);
    for (int64_t t = 0; t < length; ++t) {
      for (size_t j = 0; j < inputs.size(); ++j) {
        int64_t pos = spec_.in_reverse[j] ? length - 1 - t : t;
        slices[j] = kernels::select(inputs[j], ax[j], pos);
        body_.plan->bind_input(spec_.states + j, slices[j]);
      }
      body_.iterate(io, states, next, 0, 0, stacks, [](const exec::Plan&) {});
    }
    std::vector<Tensor> outs;
    for (size_t k = 0; k < stacks.size(); ++k) {
      Tensor t = stacks[k].finish(out_items_[k].elem, out_items_[k].shape);
      outs.push_back(spec_.out_reverse[k] ? kernels::reverse_leading(t) : t);
    }
    return outs;
  }

  // Scan-8: axis 0 of every state and scan input is a batch; each entry scans on its own.
  void run_batched(KernelIO& io) {
    const size_t first = 1;  // input 0 is sequence_lens
    int64_t batch = -1;
    for (size_t j = first; j < first + spec_.states + spec_.scan_inputs; ++j) {
      const Tensor& x = io.input(j);
      if (x.rank() < 1) fail(ErrorKind::BadInput, "", "Scan-8 inputs need a batch axis");
      batch = x.dim(0);
    }
    std::vector<std::vector<Tensor>> per_output(spec_.states + spec_.scan_outputs);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<Value> states(spec_.states);
      std::vector<Tensor> inputs;
      for (size_t j = 0; j < spec_.states; ++j)
        states[j] = kernels::select(io.input(first + j), 0, b);
      for (size_t j = 0; j < spec_.scan_inputs; ++j)
        inputs.push_back(kernels::select(io.input(first + spec_.states + j), 0, b));
      const int64_t extent = inputs.empty() ? 0 : inputs[0].dim(0);
      int64_t length = -1;
      if (io.has_input(0)) {
        if (io.input(0).numel() != batch)
          fail(ErrorKind::BadInput, "", "Scan-8's sequence_lens needs one length per batch entry");
        length = io.input(0).get_int(b);
        if (length < 0 || length > extent)
          fail(ErrorKind::BadInput, "",
               "Scan-8's sequence_lens[" + std::to_string(b) + "] = " + std::to_string(length) +
                   " is outside [0, " + std::to_string(extent) + "]");
      }
      std::vector<Tensor> outs = scan(io, states, inputs, spec_.in_axes, length);
      for (size_t j = 0; j < spec_.states; ++j) per_output[j].push_back(states[j].tensor());
      for (size_t k = 0; k < outs.size(); ++k)
        per_output[spec_.states + k].push_back(padded(outs[k], extent));
    }
    for (size_t o = 0; o < per_output.size(); ++o) {
      kernels::Stacker stack(batch);
      for (const Tensor& t : per_output[o]) stack.append(t);
      io.set_output(o, stack.finish(ElemType::Float, {}));
    }
  }

  // `t` with zero items appended along axis 0 up to `n` (a shorter Scan-8 sequence).
  static Tensor padded(const Tensor& t, int64_t n) {
    if (t.rank() == 0 || t.dim(0) >= n) return t;
    Dims shape = t.shape();
    shape[0] = n;
    Tensor out = Tensor::zeros(t.type(), shape);
    if (t.type() == ElemType::String)
      std::copy_n(t.strings(), t.numel(), out.strings());
    else if (t.nbytes() > 0)
      std::memcpy(out.raw(), t.raw(), t.nbytes());
    return out;
  }

  Body body_;
  ScanSpec spec_;
  std::vector<StackItem> out_items_;  // from the declared types, for empty scan outputs
  bool batched_;
};

std::vector<int64_t> ints_or(const BuildContext& ctx, const char* name, size_t n, int64_t fill) {
  std::vector<int64_t> v = ctx.attr_ints(name);
  if (v.empty()) v.assign(n, fill);
  if (v.size() != n)
    ctx.invalid(std::string(name) + " has " + std::to_string(v.size()) + " entries, expected " +
                std::to_string(n));
  return v;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Graph& body = ctx.graph_attr("body");
  const bool batched = ctx.since == 8;
  ScanSpec spec;
  if (!ctx.has_attr("num_scan_inputs")) ctx.invalid("missing attribute num_scan_inputs");
  spec.scan_inputs = static_cast<size_t>(ctx.attr_int("num_scan_inputs", 0));
  size_t given = ctx.node.inputs.size() - (batched ? 1 : 0);
  if (spec.scan_inputs > given) ctx.invalid("num_scan_inputs exceeds the number of inputs");
  spec.states = given - spec.scan_inputs;
  if (body.inputs.size() != spec.states + spec.scan_inputs)
    ctx.invalid("the Scan body takes " + std::to_string(body.inputs.size()) + " inputs, expected " +
                std::to_string(spec.states + spec.scan_inputs));
  if (body.outputs.size() < spec.states)
    ctx.invalid("the Scan body yields fewer outputs than there are states");
  spec.scan_outputs = body.outputs.size() - spec.states;
  spec.in_axes = batched ? std::vector<int64_t>(spec.scan_inputs, 0)
                         : ints_or(ctx, "scan_input_axes", spec.scan_inputs, 0);
  spec.in_reverse =
      ints_or(ctx, batched ? "directions" : "scan_input_directions", spec.scan_inputs, 0);
  spec.out_axes = ints_or(ctx, "scan_output_axes", spec.scan_outputs, 0);
  spec.out_reverse = ints_or(ctx, "scan_output_directions", spec.scan_outputs, 0);
  std::vector<StackItem> out_items;
  for (size_t k = 0; k < spec.scan_outputs; ++k)
    out_items.push_back(stack_item(body.outputs[spec.states + k]->type));
  return std::make_unique<Scan>(Body::compile(ctx, body), std::move(spec), std::move(out_items),
                                batched);
}

// A scan input whose declared body input its slice contradicts (a shape conflict: an error
// for the check, a warning when running), and scan inputs of different known lengths (an
// error: no iteration count fits both).
class ScanLength {
 public:
  explicit ScanLength(const char* what) : what_(what) {}
  // Input `input` of the node has `d` here.
  void add(InferContext& ctx, size_t input, const ir::Dim& d) {
    if (!d.is_known()) return;
    if (!length_.is_known()) {
      length_ = d;
      input_ = input;
    } else if (d.value != length_.value) {
      ctx.error("input " + std::to_string(input) + " has " + what_ + " " + std::to_string(d.value) +
                ", but input " + std::to_string(input_) + " has " + std::to_string(length_.value) +
                "; they must agree");
    }
  }
  const ir::Dim& length() const { return length_; }

 private:
  std::string what_;
  ir::Dim length_;
  size_t input_ = 0;
};

void check_body_input(InferContext& ctx, const ir::Graph& body, size_t k, const ir::Type& slice) {
  if (k >= body.inputs.size()) return;
  const ir::Edge* e = body.inputs[k];
  if (e->has_value_info && check::kinds_agree(e->type, slice) && !check::compatible(e->type, slice))
    ctx.shape_conflict("body input " + std::to_string(k) + " ('" + e->name + "') is declared " +
                       ir::to_string(e->type) + ", but the scan gives it " + ir::to_string(slice));
}

// The body sees each state with its shape left open and one slice of each scan input; the
// final states are the union of initial and returned types, the scan outputs the body's
// items stacked along their axes, as many as the scan inputs are long. Scan-8's inputs and
// outputs have a batch axis first, which the body does not see (its scan axis is axis 1).
void infer(InferContext& ctx) {
  const bool batched = ctx.since == 8;
  size_t first = batched ? 1 : 0;
  auto scans = static_cast<size_t>(ctx.attr_int("num_scan_inputs", 0));
  if (scans > ctx.num_inputs() - first) return;  // the kernel and the structural check say why
  size_t states = ctx.num_inputs() - first - scans;
  const ir::Graph& graph = ctx.graph_attr("body");
  std::vector<int64_t> in_axes =
      batched ? std::vector<int64_t>{} : ctx.attr_ints("scan_input_axes");
  // Scan-8: one batch entry of an input, and the batch size once an input tells it.
  ScanLength batch("batch size");
  auto entry = [&](size_t input) {
    const ir::Type& t = ctx.input_type(first + input);
    if (!batched) return t;
    if (t.kind == ir::Type::Kind::Tensor && t.shape.rank_known && !t.shape.dims.empty())
      batch.add(ctx, first + input, t.shape.dims[0]);
    return slice_type(t, 0);
  };
  std::vector<ir::Type> body_inputs, initial;
  ScanLength length("scan length");
  for (size_t k = 0; k < states + scans; ++k) {
    const ir::Type given = entry(k);  // a copy: entry may make it
    if (k < states) {
      initial.push_back(given);
      body_inputs.push_back(carried_type(given));
      continue;
    }
    const ir::Shape& shape = given.shape;
    int64_t axis = k - states < in_axes.size() ? in_axes[k - states] : 0;
    if (given.kind == ir::Type::Kind::Tensor && shape.rank_known) {
      axis = normalize_axis(ctx, axis, static_cast<int64_t>(shape.dims.size()), "scan input axis");
      length.add(ctx, first + k, shape.dims[static_cast<size_t>(axis)]);
    }
    body_inputs.push_back(slice_type(given, shape.rank_known ? axis : -1));
    check_body_input(ctx, graph, k, body_inputs.back());
  }
  std::vector<ir::Type> body = ctx.infer_subgraph(graph, body_inputs);
  std::vector<int64_t> out_axes = ctx.attr_ints("scan_output_axes");
  auto batched_type = [&](const ir::Type& t) {
    return batched ? stacked_type(t, 0, batch.length()) : t;
  };
  for (size_t o = 0; o < ctx.num_outputs() && o < body.size(); ++o) {
    if (o < states) {
      ctx.set_output(o, batched_type(final_carried_type(ctx, o, initial[o], body[o])));
      continue;
    }
    const ir::Type& item = body[o];
    int64_t axis = o - states < out_axes.size() && !batched ? out_axes[o - states] : 0;
    if (item.kind == ir::Type::Kind::Tensor && item.shape.rank_known)
      axis = normalize_axis(ctx, axis, static_cast<int64_t>(item.shape.dims.size()) + 1,
                            "scan output axis");
    ctx.set_output(o, batched_type(stacked_type(item, axis, length.length())));
  }
}

constexpr SignatureText kRows[] = {
    {8,
     "sequence_lens?: I, initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: "
     "V; I = int64; V = all; body: graph, num_scan_inputs: int, directions: ints?"},
    {9,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all; body: "
     "graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {11,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all; body: "
     "graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {16,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir4; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {19,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir9; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {21,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir10; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {23,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir11; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {24,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir12; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"},
    {25,
     "initial_state_and_scan_inputs**: V -> final_state_and_scan_outputs**: V; V = all_ir13; "
     "body: graph, num_scan_inputs: int, scan_input_axes: ints?, scan_input_directions: ints?, "
     "scan_output_axes: ints?, scan_output_directions: ints?"}};

}  // namespace scan_op
}  // namespace

OpDef def_Scan() {
  using namespace scan_op;
  return def_from_rows("", "Scan", make, infer, kRows);
}

}  // namespace bough::ops
