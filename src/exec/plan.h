// A Plan is a graph compiled once: a flat list of steps over numbered slots, with the
// slot of every value, when each value dies, and a nested Plan inside every control-flow
// kernel. Running never re-plans and never looks a name up. Identity nodes take no step:
// their output names the input's slot. A value is dropped after its last use, except a
// small buffer nobody else holds: that stays in its slot for the next run to overwrite
// (KernelIO::output_tensor), so steps in a Loop body allocate nothing.
//
// A Plan owns one frame (its slots) and so runs one call at a time; a Session runs one
// call at a time too. Nesting is fine: a subgraph has its own Plan and frame.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/thread_choice.h"
#include "ir/graph.h"
#include "ir/storage.h"
#include "ops/kernel.h"

namespace bough::exec {

class Profiler;

// Bytes of constant tensors (initializers, Constants' values) a plan and its nested plans
// hold for their lifetime, and those they dropped at compile time because every reader
// keeps a prepared form instead (ops::consume_constant_input, ops/constant_use.h).
struct ConstantBytes {
  size_t kept = 0;
  size_t released = 0;
};

// Initializer values an owner hands to the plans it compiles, by the graph value they belong
// to (see CompileEnv::handed_over).
using HandedOver = std::unordered_map<const ir::Edge*, Tensor>;

// Attribute values a model-local function body refers to (ref_attr_name).
using AttrEnv = std::vector<const ir::Attribute*>;

struct CompileEnv {
  const ir::Model* model = nullptr;
  const AttrEnv* attrs = nullptr;  // inside a function body
  const std::map<std::string, int64_t>* function_opsets = nullptr;
  // Per capture of the graph being compiled: the outer value's fixed address, when it has
  // one (a constant or node output of an enclosing plan, or a capture bound that way), or
  // null when the owner binds it on every call.
  const std::vector<const Value*>* capture_addresses = nullptr;
  // Per capture: whether that outer value is also constant for the enclosing plan's lifetime
  // (it then has an address too), so that kernels of this graph may prepare from it. Null:
  // none is.
  const std::vector<uint8_t>* capture_constants = nullptr;
  // Where kernels count the weights they prepare (Plan::prepared_weights): the outermost
  // plan's counter, shared by its nested plans. Null: the plan being compiled is outermost.
  size_t* prepared_weights = nullptr;
  // Where plans add up their constants' bytes (Plan::constant_bytes), shared the same way.
  ConstantBytes* constant_bytes = nullptr;
  // Initializer values the plans take over (moved out) instead of sharing the graph's
  // Edge::data, for those listed; the owner (a Session, on its own copy of the model) has
  // taken them out of the graph, so a plan that drops one frees it. Null: none.
  HandedOver* handed_over = nullptr;
};

class Plan {
 public:
  static std::unique_ptr<Plan> compile(const ir::Graph& graph, const CompileEnv& env);
  ~Plan();

  size_t num_inputs() const { return input_slots_.size(); }
  size_t num_outputs() const { return output_slots_.size(); }

  // Before run(): input i / capture k reads the caller's value in place, by reference (no
  // copy, no reference-count traffic). It must stay alive and unchanged until run() returns.
  // A binding stays until the next one, so the owner binds every input and capture before
  // each run. Captures with a fixed address (CompileEnv::capture_addresses) are bound once,
  // at compile time, and need no binding.
  void bind_input(size_t i, const Value& v) { bind(input_slots_[i], v); }
  void bind_capture(size_t k, const Value& v) { bind(capture_slots_[k], v); }

  // Runs the steps over the bound inputs and captures.
  void run(ops::RunContext& ctx);
  // Before run(), optional: output i is computed straight into `dst`, so that taking it
  // afterwards costs nothing. Only for an output the plan computes itself and lists once
  // (else this does nothing); `dst` must not be an input or capture. Undone by reset().
  void bind_output(size_t i, Value& dst) {
    if (!output_shared_[i]) slots_[static_cast<size_t>(output_slots_[i])] = &dst;
  }
  // Output i after run(), into `dst`: moved out when nothing else refers to the slot, else
  // shared (nothing to do when it was bound to `dst`).
  void take_output(size_t i, Value& dst) {
    Value& v = *slots_[static_cast<size_t>(output_slots_[i])];
    if (output_shared_[i])
      dst = v;
    else
      dst = std::move(v);  // a no-op for an output bound to dst
  }
  // Output i after run(), where it is: valid until reset() or the next run().
  const Value& output(size_t i) const { return *slots_[static_cast<size_t>(output_slots_[i])]; }
  Value take_output(size_t i) {
    Value v;
    take_output(i, v);
    return v;
  }
  // Clears what run() left: outputs not taken (a small buffer stays for the next run, see
  // Value::release_after_use), and bindings of outputs.
  void reset() {
    for (int32_t s : reset_slots_) {
      slots_[static_cast<size_t>(s)] = &frame_[static_cast<size_t>(s)];
      ir::release_after_use(frame_[static_cast<size_t>(s)]);
    }
  }

  // Where slot `s` always lives, or null when that changes from call to call (inputs and
  // captures bound per call, and outputs the owner may bind to its own destination).
  const Value* fixed_slot(int32_t s) const {
    return fixed_[static_cast<size_t>(s)] ? slots_[static_cast<size_t>(s)] : nullptr;
  }
  // The value of slot `s` when it is the same for the plan's lifetime (an initializer, a
  // Constant's output, or a constant capture), else null.
  const Value* constant_slot(int32_t s) const {
    return s >= 0 && constant_[static_cast<size_t>(s)] ? slots_[static_cast<size_t>(s)] : nullptr;
  }
  // How many weights the kernels of this plan and of all its nested plans prepared from
  // constant inputs when they were built (ops::BuildContext::count_prepared). Preparing
  // happens only then, once: runs never rebuild a kernel. Zero for a nested plan, which
  // counts into its outermost plan.
  size_t prepared_weights() const { return prepared_weights_; }
  // Constant bytes this plan and its nested plans keep and dropped; zero for a nested plan,
  // which counts into its outermost plan.
  const ConstantBytes& constant_bytes() const { return constant_bytes_; }
  // Whether every reader of capture k in this plan keeps a prepared form of it, so that
  // the enclosing plan need not keep the outer value for this plan's sake.
  bool capture_consumed(size_t k) const { return capture_consumed_[k] != 0; }
  const std::string& where() const { return where_; }

 private:
  struct Step {
    ops::Kernel* kernel;
    uint32_t in, n_in, out, n_out, free, n_free;  // ranges into refs_
  };
  Plan() = default;
  void bind(int32_t s, const Value& v) { slots_[static_cast<size_t>(s)] = const_cast<Value*>(&v); }
  void compile_graph(const ir::Graph& graph, const CompileEnv& outer_env);
  // The steps, each timed into `profiler` when kProfiled (see exec/profiler.h).
  template <bool kProfiled>
  void run_steps(ops::RunContext& ctx, Profiler* profiler);
  template <bool kProfiled>
  void run_step(size_t i, ops::KernelIO& io, Profiler* profiler);
  // Step i under its ThreadChoice (a pool with workers only).
  template <bool kProfiled>
  void run_chosen(size_t i, ops::KernelIO& io, Profiler* profiler);
  // The elements of step i's tensor inputs and captures, as they are now.
  int64_t input_elements(size_t i) const;
  // Hands `profiler` the tensors step i read and wrote, after it ran.
  void record_tensors(Profiler& profiler, size_t i) const;
  // Drops each constant owned here that no reader needs (`needed`: per slot) once its last
  // reader is built, counting into `counts`; then notes which captures this plan does not
  // need.
  class ConstantDrops {
   public:
    ConstantDrops(size_t slots, ConstantBytes& counts);
    void add_reader(int32_t s) {
      if (s >= 0) ++readers_left_[static_cast<size_t>(s)];
    }
    // A reader of slot s is built.
    void read(int32_t s, Plan& plan, const std::vector<bool>& needed);
    // Every step is built: settles the slots nothing read, and the captures.
    void finish(Plan& plan, const std::vector<bool>& needed);

   private:
    void settle(int32_t s, Plan& plan, const std::vector<bool>& needed);
    std::vector<int32_t> readers_left_;
    std::vector<bool> done_;
    ConstantBytes& counts_;
  };
  // After a failed run: drops every value but the constants.
  void clear_all();
  void unbind();

  std::vector<Step> steps_;
  std::vector<ThreadChoice> thread_choices_;  // per step
  std::vector<std::string> step_where_;
  std::vector<std::string> step_op_;       // the operator of each step, for profiles
  std::vector<uint32_t> step_own_inputs_;  // per step: its node's inputs, before its captures
  // The constants dropped once their readers had prepared them, as profiles describe them.
  struct DroppedConstant {
    ElemType elem;
    Dims dims;
    int64_t bytes;
  };
  std::unordered_map<int32_t, DroppedConstant> dropped_;
  std::vector<int32_t> refs_;
  std::vector<std::unique_ptr<ops::Kernel>> kernels_;
  std::vector<int32_t> input_slots_, capture_slots_, output_slots_;
  std::vector<uint8_t> output_shared_;   // per output: bool
  std::vector<int32_t> reset_slots_;     // outputs the plan computes (they may be bound)
  std::vector<int32_t> bound_per_call_;  // inputs, and captures without a fixed home
  std::vector<bool> constant_;           // per slot: its value is the same for the Plan's lifetime
  std::vector<Value> frame_;             // values this plan owns (node outputs, constants)
  std::vector<Value*> slots_;            // per slot: its value in frame_, or a caller's bound value
  std::vector<bool> borrowed_;           // per slot: an input or capture, bound by the caller
  std::vector<bool> fixed_;              // per slot: its address never changes
  Value unbound_;  // what an unbound input or capture reads: the empty optional
  size_t prepared_weights_ = 0;
  ConstantBytes constant_bytes_;
  std::vector<uint8_t> capture_consumed_;  // per capture: bool
  std::string where_;
};

// "model.onnx: main/If \"gate\"/then_branch" — the place of a graph in errors.
std::string graph_where(const ir::Graph& graph, const ir::Model* model);

}  // namespace bough::exec
