#include "exec/plan.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "exec/function_call.h"
#include "exec/profiler.h"
#include "ir/memory_limit.h"
#include "ir/storage.h"
#include "ops/constant_use.h"
#include "ops/registry.h"

namespace bough::exec {

std::string graph_where(const ir::Graph& graph, const ir::Model* model) {
  return (model && !model->path.empty() ? model->path + ": " : std::string()) + graph.path();
}

Plan::~Plan() = default;

std::unique_ptr<Plan> Plan::compile(const ir::Graph& graph, const CompileEnv& env) {
  std::unique_ptr<Plan> plan(new Plan());
  plan->compile_graph(graph, env);
  return plan;
}

namespace {

std::unique_ptr<ops::Kernel> make_kernel(const ir::Node& node, const CompileEnv& env,
                                         const std::string& where, const Plan* plan,
                                         std::span<const int32_t> step_inputs,
                                         std::span<uint8_t> use) {
  // The factory's reports on its constant inputs (ops/constant_use.h) land in `use`.
  ops::ConstantUseScope reports(use);
  // What of the inputs is constant for the plan's lifetime, for kernels to prepare from.
  std::vector<const Value*> constants;
  for (int32_t s : step_inputs) constants.push_back(plan->constant_slot(s));
  if (env.model)
    for (const auto& fn : env.model->functions)
      if (fn->name == node.op_type && fn->domain == node.domain && fn->overload == node.overload)
        return make_function_call(node, *fn, env, where);
  const ops::OpDef* def = ops::find_op(node.domain, node.op_type);
  std::string op = (node.domain.empty() ? "" : node.domain + ".") + node.op_type;
  if (!def) fail(ErrorKind::Unsupported, where, "operator " + op + " is not implemented");
  int64_t opset = ops::node_opset(env.model, env.function_opsets, node);
  // The schema row in force: the newest since_version not above the imported opset. Run
  // leniently: a model importing an older opset than the first row still gets that row.
  int since = ops::since_of(*def, opset);
  auto n_in = static_cast<int>(node.inputs.size());
  auto n_out = static_cast<int>(node.outputs.size());
  if (n_in < def->min_inputs || n_in > def->max_inputs)
    fail(
        ErrorKind::InvalidModel, where,
        op + " takes " + std::to_string(def->min_inputs) +
            (def->max_inputs == def->min_inputs
                 ? ""
                 : " to " + (def->max_inputs >= ops::kVariadic ? std::string("any number of")
                                                               : std::to_string(def->max_inputs))) +
            " inputs, got " + std::to_string(n_in));
  if (n_out < def->min_outputs || n_out > def->max_outputs)
    fail(ErrorKind::InvalidModel, where,
         op + " has " + std::to_string(n_out) + " outputs, expected " +
             std::to_string(def->min_outputs) +
             (def->max_outputs == def->min_outputs ? "" : " or more"));
  ops::BuildContext ctx(node, opset, since, &env, env.attrs, where, plan, step_inputs,
                        ops::StepConstants{constants, env.prepared_weights});
  return def->make(ctx);
}

}  // namespace

namespace {

// Numbers the values of a graph: inputs, captures, initializers, then node outputs.
class SlotNumbering {
 public:
  int32_t add(const ir::Edge* v) {
    slot_of_[v] = count_;
    return count_++;
  }
  // `v` shares the slot of `same`.
  void alias(const ir::Edge* v, const ir::Edge* same) { slot_of_[v] = slot_of_.at(same); }
  bool has(const ir::Edge* v) const { return slot_of_.count(v) != 0; }
  size_t size() const { return static_cast<size_t>(count_); }
  // The slot of `v`, or -1 for an omitted optional input or output.
  int32_t operator()(const ir::Edge* v, const std::string& where) const {
    if (!v) return -1;
    auto it = slot_of_.find(v);
    if (it == slot_of_.end())
      fail(ErrorKind::InvalidModel, where, "value '" + v->name + "' is not in this graph");
    return it->second;
  }

 private:
  std::unordered_map<const ir::Edge*, int32_t> slot_of_;
  int32_t count_ = 0;
};

// An Identity node needs no step: its output is another name for its input's slot.
bool is_alias(const ir::Node& node) {
  return node.op_type == "Identity" && node.domain.empty() && node.inputs.size() == 1 &&
         node.inputs[0] && node.outputs.size() == 1 && node.outputs[0];
}

}  // namespace

void Plan::compile_graph(const ir::Graph& graph, const CompileEnv& outer_env) {
  where_ = graph_where(graph, outer_env.model);
  CompileEnv env = outer_env;
  if (!env.prepared_weights) env.prepared_weights = &prepared_weights_;
  if (!env.constant_bytes) env.constant_bytes = &constant_bytes_;
  SlotNumbering slot;
  for (const ir::Edge* v : graph.inputs) input_slots_.push_back(slot.add(v));
  for (const ir::Edge* v : graph.captures) capture_slots_.push_back(slot.add(v));
  std::vector<std::pair<int32_t, const ir::Edge*>> initializers;
  for (const ir::Edge* v : graph.initializers)
    if (!slot.has(v)) initializers.emplace_back(slot.add(v), v);  // not an input's default
  std::unordered_set<const ir::Node*> aliases;
  for (const auto& node : graph.nodes) {
    if (is_alias(*node) && slot.has(node->inputs[0])) {
      slot.alias(node->outputs[0], node->inputs[0]);
      aliases.insert(node.get());
      continue;
    }
    for (const ir::Edge* v : node->outputs)
      if (v) slot.add(v);
  }
  const size_t n = slot.size();
  auto at = [](int32_t s) { return static_cast<size_t>(s); };

  // Where each slot's value lives: the frame for owned slots (a fixed address); a caller's
  // value for inputs and captures, bound per call, unless a capture's outer value has a
  // fixed home, which is then bound here once.
  frame_.resize(n);
  slots_.resize(n);
  borrowed_.assign(n, false);
  fixed_.assign(n, true);
  constant_.assign(n, false);
  for (int32_t s : input_slots_) borrowed_[at(s)] = true, fixed_[at(s)] = false;
  for (size_t k = 0; k < capture_slots_.size(); ++k) {
    const Value* home = env.capture_addresses ? (*env.capture_addresses)[k] : nullptr;
    size_t s = at(capture_slots_[k]);
    borrowed_[s] = true;
    fixed_[s] = home != nullptr;
    slots_[s] = home ? const_cast<Value*>(home) : &unbound_;
    constant_[s] = home && env.capture_constants && (*env.capture_constants)[k];
  }
  for (size_t s = 0; s < n; ++s) {
    if (!borrowed_[s]) {
      slots_[s] = &frame_[s];
    } else if (!fixed_[s]) {
      slots_[s] = &unbound_;
      bound_per_call_.push_back(static_cast<int32_t>(s));
    }
  }
  for (const auto& [s, v] : initializers) {
    auto handed = env.handed_over ? env.handed_over->extract(v) : HandedOver::node_type();
    frame_[at(s)] = handed ? std::move(handed.mapped()) : *v->data;
    constant_[at(s)] = true;
  }
  for (const ir::Edge* v : graph.outputs) output_slots_.push_back(slot(v, where_));
  // An output the plan computes may be redirected to the owner's destination on any call
  // (bind_output), so its address is not fixed: a subgraph that captures it must bind it on
  // every call, or it would read the frame's empty value.
  for (int32_t s : output_slots_)
    if (!borrowed_[at(s)] && !constant_[at(s)]) fixed_[at(s)] = false;

  // One step per node, except Constant nodes, which are evaluated here once and become
  // constant slots. Also notes the step that reads each slot last, and the slots some
  // reader needs at run time (not only a prepared form of them).
  std::vector<int64_t> last_use(n, -1);
  std::vector<bool> needed(n, false);
  for (int32_t s : output_slots_) needed[at(s)] = true;
  // A constant is dropped as soon as its last reader is built, if no reader needs it: when
  // the plan is its only owner (CompileEnv::handed_over), its memory is free for the
  // prepared forms of the weights built after it.
  ConstantDrops drops(n, *env.constant_bytes);
  for (const auto& node : graph.nodes) {
    if (aliases.count(node.get())) continue;
    const std::string where = where_ + "/" + node->label();
    for (const ir::Edge* v : node->inputs) drops.add_reader(slot(v, where));
    for (const ir::Edge* v : node->implicit_inputs) drops.add_reader(slot(v, where));
  }
  for (const auto& node : graph.nodes) {
    if (aliases.count(node.get())) continue;
    std::string where = where_ + "/" + node->label();
    std::vector<int32_t> ins;
    for (const ir::Edge* v : node->inputs) ins.push_back(slot(v, where));
    for (const ir::Edge* v : node->implicit_inputs) ins.push_back(slot(v, where));
    if (node->op_type == "Constant" && node->domain.empty() && node->outputs.size() == 1 &&
        node->outputs[0]) {
      int32_t s = slot(node->outputs[0], where);
      Value* target = &frame_[at(s)];
      ops::RunContext none;
      int32_t out[] = {0};
      ops::KernelIO io(none, &target, {}, out);
      for (int32_t in : ins) {
        if (in >= 0) needed[at(in)] = true;
        drops.read(in, *this, needed);
      }
      make_kernel(*node, env, where, this, ins, {})->run(io);
      constant_[at(s)] = true;
      fixed_[at(s)] = true;  // a constant output is shared, never redirected
      continue;
    }
    auto index = static_cast<int64_t>(steps_.size());
    for (int32_t s : ins)
      if (s >= 0) last_use[at(s)] = index;
    for (const ir::Edge* v : node->outputs)
      if (v) last_use[at(slot(v, where))] = std::max(last_use[at(slot(v, where))], index);
    std::vector<uint8_t> use(ins.size(), 0);
    kernels_.push_back(make_kernel(*node, env, where, this, ins, use));
    for (size_t j = 0; j < ins.size(); ++j)
      if (ins[j] >= 0 && use[j] != ops::kConsumed) needed[at(ins[j])] = true;
    for (int32_t in : ins) drops.read(in, *this, needed);
    Step step{kernels_.back().get(), 0, 0, 0, 0, 0, 0};
    step.in = static_cast<uint32_t>(refs_.size());
    step.n_in = static_cast<uint32_t>(ins.size());
    refs_.insert(refs_.end(), ins.begin(), ins.end());
    step.out = static_cast<uint32_t>(refs_.size());
    for (const ir::Edge* v : node->outputs) refs_.push_back(slot(v, where));
    step.n_out = static_cast<uint32_t>(node->outputs.size());
    steps_.push_back(step);
    thread_choices_.emplace_back(steps_.size() % 2 == 0);
    step_where_.push_back(std::move(where));
    step_op_.push_back(node->domain.empty() ? node->op_type : node->domain + "." + node->op_type);
    step_own_inputs_.push_back(static_cast<uint32_t>(node->inputs.size()));
  }

  drops.finish(*this, needed);

  // A value dies after the step that reads it last (or that makes it, if nothing reads it);
  // constants, borrowed values and graph outputs are never freed by a step.
  std::vector<bool> kept(n, false);
  for (size_t s = 0; s < n; ++s) kept[s] = constant_[s] || borrowed_[s];
  for (int32_t s : output_slots_) kept[at(s)] = true;
  std::vector<std::vector<int32_t>> dying(steps_.size());
  for (size_t s = 0; s < n; ++s)
    if (last_use[s] >= 0 && !kept[s])
      dying[static_cast<size_t>(last_use[s])].push_back(static_cast<int32_t>(s));
  for (size_t i = 0; i < steps_.size(); ++i) {
    steps_[i].free = static_cast<uint32_t>(refs_.size());
    steps_[i].n_free = static_cast<uint32_t>(dying[i].size());
    refs_.insert(refs_.end(), dying[i].begin(), dying[i].end());
  }

  // An output is moved out unless the slot is a constant, borrowed from the caller, or
  // listed twice among the outputs; what is not taken is cleared by reset().
  for (int32_t s : output_slots_) {
    bool owned = !constant_[at(s)] && !borrowed_[at(s)];
    output_shared_.push_back(!owned ||
                             std::count(output_slots_.begin(), output_slots_.end(), s) > 1);
    if (owned) reset_slots_.push_back(s);
  }
}

Plan::ConstantDrops::ConstantDrops(size_t slots, ConstantBytes& counts)
    : readers_left_(slots, 0), done_(slots, false), counts_(counts) {}

void Plan::ConstantDrops::read(int32_t s, Plan& plan, const std::vector<bool>& needed) {
  if (s >= 0 && --readers_left_[static_cast<size_t>(s)] == 0) settle(s, plan, needed);
}

void Plan::ConstantDrops::settle(int32_t s, Plan& plan, const std::vector<bool>& needed) {
  const auto i = static_cast<size_t>(s);
  if (done_[i] || !plan.constant_[i] || plan.borrowed_[i]) return;
  done_[i] = true;
  Value& v = plan.frame_[i];
  const size_t bytes = v.is_tensor() ? v.tensor().nbytes() : 0;
  if (needed[i]) {
    counts_.kept += bytes;
  } else {
    counts_.released += bytes;
    if (v.is_tensor())
      plan.dropped_[s] = {v.tensor().type(), v.tensor().shape(), static_cast<int64_t>(bytes)};
    v = Value();
    // Freed for real, not kept in the buffer cache: the weights built next will not ask
    // for this size, and their prepared forms take the room.
    if (bytes) ir::free_cached_buffers();
  }
}

void Plan::ConstantDrops::finish(Plan& plan, const std::vector<bool>& needed) {
  for (size_t s = 0; s < plan.frame_.size(); ++s) settle(static_cast<int32_t>(s), plan, needed);
  for (int32_t s : plan.capture_slots_) {
    const auto i = static_cast<size_t>(s);
    plan.capture_consumed_.push_back(plan.constant_[i] && !needed[i] ? 1 : 0);
  }
}

namespace {

// Rethrows the exception being handled, a step's, as an Error placed at the step (unless it
// names its place already); out-of-memory becomes BadInput. Others pass unchanged.
[[noreturn]] void rethrow_at(const std::string& where) {
  try {
    throw;
  } catch (const Error& e) {
    if (!e.where().empty()) throw;
    throw Error(e.kind(), where, e.message());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::BadInput, where, "out of memory");
  } catch (const std::length_error&) {
    throw Error(ErrorKind::BadInput, where, "out of memory");
  }
}

// Throws when the run was cancelled or is past its deadline.
void check_limits(const ops::RunContext& ctx) {
  if (ctx.cancel && ctx.cancel->load(std::memory_order_relaxed))
    fail(ErrorKind::Stopped, "", "the run was cancelled");
  if (ctx.deadline_ns) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    if (std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() > ctx.deadline_ns)
      fail(ErrorKind::Stopped, "", "the run passed its time limit");
  }
}

}  // namespace

void Plan::run(ops::RunContext& ctx) {
  if (Profiler* profiler = Profiler::active())
    run_steps<true>(ctx, profiler);
  else
    run_steps<false>(ctx, nullptr);
}

template <bool kProfiled>
void Plan::run_steps(ops::RunContext& ctx, Profiler* profiler) {
  Value* const* frame = slots_.data();
  const int32_t* refs = refs_.data();
  // Pointers kept in locals: a kernel could in principle reach this plan, so the compiler
  // would otherwise reload steps_ after every call.
  const Step* st = steps_.data();
  const Step* const end = st + steps_.size();
  const ThreadChoice* choices =
      ctx.pool && ctx.pool->threads() > 1 && ctx.node_choices ? thread_choices_.data() : nullptr;
  const bool limited = ctx.limited();
  // Checked at entry too: a body whose outputs are its inputs has no steps, and a Loop over
  // it must still stop (the error then takes the place of the node running the body).
  if (limited) check_limits(ctx);
  try {
    for (; st != end; ++st) {
      if (limited) check_limits(ctx);
      ops::KernelIO io(ctx, frame, {refs + st->in, st->n_in}, {refs + st->out, st->n_out});
      const auto i = static_cast<size_t>(st - steps_.data());
      if (choices && !choices[i].settled_free())
        run_chosen<kProfiled>(i, io, profiler);
      else
        run_step<kProfiled>(i, io, profiler);
      for (const int32_t* f = refs + st->free; f != refs + st->free + st->n_free; ++f)
        ir::release_after_use(*frame[*f]);
    }
  } catch (...) {
    clear_all();
    rethrow_at(step_where_[static_cast<size_t>(st - steps_.data())]);
  }
}

template <bool kProfiled>
void Plan::run_step(size_t i, ops::KernelIO& io, Profiler* profiler) {
  ops::Kernel* kernel = steps_[i].kernel;
  if constexpr (kProfiled) {
    const int64_t start = Profiler::now_ns();
    profiler->begin();
    try {
      kernel->run(io);
    } catch (...) {
      profiler->abandon();
      throw;
    }
    profiler->end(step_where_[i], step_op_[i], start);
    record_tensors(*profiler, i);
  } else {
    kernel->run(io);
  }
}

template <bool kProfiled>
void Plan::run_chosen(size_t i, ops::KernelIO& io, Profiler* profiler) {
  ThreadChoice& choice = thread_choices_[i];
  bool timed = false;
  const ChosenRun chosen(choice.policy_for(input_elements(i), timed));
  if (!timed) return run_step<kProfiled>(i, io, profiler);
  const int64_t start = Profiler::now_ns();
  run_step<kProfiled>(i, io, profiler);
  choice.record(Profiler::now_ns() - start, chosen.wanted_split());
}

int64_t Plan::input_elements(size_t i) const {
  const Step& st = steps_[i];
  int64_t n = 0;
  const int32_t* in = refs_.data() + st.in;
  for (const int32_t* s = in; s != in + st.n_in; ++s)
    if (*s >= 0 && slots_[static_cast<size_t>(*s)]->is_tensor())
      n += slots_[static_cast<size_t>(*s)]->tensor().numel();
  return n;
}

void Plan::record_tensors(Profiler& profiler, size_t i) const {
  const Step& st = steps_[i];
  auto record = [&](int32_t s, bool output) {
    if (s < 0) return;
    const Value& v = *slots_[static_cast<size_t>(s)];
    const bool constant = !output && constant_[static_cast<size_t>(s)];
    if (v.is_tensor()) {
      const Tensor& t = v.tensor();
      // A string counts as the std::string holding it, as ONNX Runtime counts it.
      const size_t bytes = t.type() == ElemType::String
                               ? static_cast<size_t>(t.numel()) * sizeof(std::string)
                               : t.nbytes();
      profiler.add_tensor(output, constant, t.type(), t.shape(), static_cast<int64_t>(bytes));
    } else if (constant) {
      const auto dropped = dropped_.find(s);
      if (dropped != dropped_.end())
        profiler.add_tensor(false, true, dropped->second.elem, dropped->second.dims,
                            dropped->second.bytes);
    }
  };
  for (uint32_t k = 0; k < step_own_inputs_[i]; ++k) record(refs_[st.in + k], false);
  for (uint32_t k = 0; k < st.n_out; ++k) record(refs_[st.out + k], true);
}

void Plan::clear_all() {
  for (size_t s = 0; s < frame_.size(); ++s)
    if (!constant_[s]) frame_[s].reset();
  for (int32_t s : reset_slots_) slots_[static_cast<size_t>(s)] = &frame_[static_cast<size_t>(s)];
  unbind();
}

void Plan::unbind() {
  for (int32_t s : bound_per_call_) slots_[static_cast<size_t>(s)] = &unbound_;
}

}  // namespace bough::exec
