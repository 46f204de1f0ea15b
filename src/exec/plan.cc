#include "exec/plan.h"

#include <algorithm>
#include <new>
#include <span>
#include <unordered_map>

#include "exec/function_call.h"
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

int64_t domain_opset(const ir::Node& node, const CompileEnv& env) {
  if (env.function_opsets) {
    for (const auto& [d, v] : *env.function_opsets)
      if (d == node.domain || (node.domain.empty() && d == "ai.onnx")) return v;
  }
  return env.model ? env.model->opset(node.domain) : 0;
}

std::unique_ptr<Kernel> make_kernel(const ir::Node& node, const CompileEnv& env,
                                    const std::string& where, const Plan* plan,
                                    std::span<const int32_t> step_inputs) {
  if (env.model)
    for (const auto& fn : env.model->functions)
      if (fn->name == node.op_type && fn->domain == node.domain && fn->overload == node.overload)
        return make_function_call(node, *fn, env, where);
  const ops::OpDef* def = ops::find_op(node.domain, node.op_type);
  std::string op = (node.domain.empty() ? "" : node.domain + ".") + node.op_type;
  if (!def) fail(ErrorKind::Unsupported, where, "operator " + op + " is not implemented");
  int64_t opset = domain_opset(node, env);
  // The schema row in force: the newest since_version not above the imported opset. Run
  // leniently: a model importing an older opset than the first row still gets that row.
  int since = def->versions.front();
  for (int v : def->versions)
    if (v <= opset) since = v;
  auto n_in = static_cast<int>(node.inputs.size());
  auto n_out = static_cast<int>(node.outputs.size());
  if (n_in < def->min_inputs || n_in > def->max_inputs)
    fail(ErrorKind::InvalidModel, where,
         op + " takes " + std::to_string(def->min_inputs) +
             (def->max_inputs == def->min_inputs ? "" : " to " + (def->max_inputs >= ops::kVariadic ? std::string("any number of") : std::to_string(def->max_inputs))) +
             " inputs, got " + std::to_string(n_in));
  if (n_out < def->min_outputs || n_out > def->max_outputs)
    fail(ErrorKind::InvalidModel, where, op + " has " + std::to_string(n_out) + " outputs, expected " +
                                             std::to_string(def->min_outputs) + (def->max_outputs == def->min_outputs ? "" : " or more"));
  ops::BuildContext ctx(node, opset, since, env, where, plan, step_inputs);
  return def->make(ctx);
}

}  // namespace

void Plan::compile_graph(const ir::Graph& graph, const CompileEnv& env) {
  where_ = graph_where(graph, env.model);
  std::unordered_map<const ir::Value*, int32_t> slot_of;
  auto new_slot = [&](const ir::Value* v) {
    auto s = static_cast<int32_t>(slot_of.size());
    slot_of[v] = s;
    return s;
  };
  std::vector<bool> pinned;  // constants and graph outputs: never freed by a step
  for (const ir::Value* v : graph.inputs) input_slots_.push_back(new_slot(v));
  for (const ir::Value* v : graph.captures) capture_slots_.push_back(new_slot(v));
  std::vector<std::pair<int32_t, Value>> constants;
  for (const ir::Value* v : graph.initializers)
    if (!slot_of.count(v)) constants.emplace_back(new_slot(v), Value(*v->data));
  for (const auto& node : graph.nodes)
    for (const ir::Value* v : node->outputs)
      if (v) new_slot(v);
  frame_.resize(slot_of.size());
  pinned.assign(slot_of.size(), false);
  borrowed_.assign(slot_of.size(), false);
  for (int32_t s : input_slots_) borrowed_[static_cast<size_t>(s)] = pinned[static_cast<size_t>(s)] = true;
  for (int32_t s : capture_slots_) borrowed_[static_cast<size_t>(s)] = pinned[static_cast<size_t>(s)] = true;
  // Where each slot's value lives: the frame for owned slots, fixed; a caller's value for
  // inputs and captures, bound per call, unless the capture's outer value has a fixed home.
  slots_.resize(frame_.size());
  fixed_.assign(frame_.size(), true);
  for (size_t s = 0; s < frame_.size(); ++s) slots_[s] = borrowed_[s] ? &unbound_ : &frame_[s];
  for (int32_t s : input_slots_) fixed_[static_cast<size_t>(s)] = false;
  for (size_t k = 0; k < capture_slots_.size(); ++k) {
    const Value* home = env.capture_addresses ? (*env.capture_addresses)[k] : nullptr;
    auto s = static_cast<size_t>(capture_slots_[k]);
    fixed_[s] = home != nullptr;
    if (home) slots_[s] = const_cast<Value*>(home);
  }
  constant_.assign(slot_of.size(), false);
  for (auto& [s, value] : constants) {
    frame_[static_cast<size_t>(s)] = std::move(value);
    pinned[static_cast<size_t>(s)] = true;
    constant_[static_cast<size_t>(s)] = true;
  }
  // An input that has a default (initializer of the same name) keeps the default when the
  // caller binds nothing; the Session handles that for the main graph.
  auto slot = [&](const ir::Value* v) -> int32_t {
    if (!v) return -1;
    auto it = slot_of.find(v);
    if (it == slot_of.end())
      fail(ErrorKind::InvalidModel, where_, "value '" + v->name + "' is not in this graph");
    return it->second;
  };
  for (const ir::Value* v : graph.outputs) {
    int32_t s = slot(v);
    output_slots_.push_back(s);
    pinned[static_cast<size_t>(s)] = true;
  }

  // Steps, and for every slot the step that reads it last.
  std::vector<int64_t> last_use(frame_.size(), -1);
  std::vector<std::vector<int32_t>> step_inputs;
  for (const auto& node : graph.nodes) {
    std::string where = where_ + "/" + node->label();
    std::vector<int32_t> ins;
    for (const ir::Value* v : node->inputs) ins.push_back(slot(v));
    for (const ir::Value* v : node->implicit_inputs) ins.push_back(slot(v));
    auto index = static_cast<int64_t>(steps_.size());
    for (int32_t s : ins)
      if (s >= 0) last_use[static_cast<size_t>(s)] = index;
    for (const ir::Value* v : node->outputs)
      if (v && last_use[static_cast<size_t>(slot(v))] < index) last_use[static_cast<size_t>(slot(v))] = index;
    if (node->op_type == "Constant" && node->domain.empty() && node->outputs.size() == 1 &&
        node->outputs[0]) {
      // Evaluated once here: its output becomes a constant slot and no step runs it.
      int32_t s = slot(node->outputs[0]);
      Value* target = &frame_[static_cast<size_t>(s)];
      RunContext none;
      int32_t out[] = {0};
      KernelIO io(none, &target, {}, out);
      make_kernel(*node, env, where, this, ins)->run(io);
      pinned[static_cast<size_t>(s)] = constant_[static_cast<size_t>(s)] = true;
      continue;
    }
    kernels_.push_back(make_kernel(*node, env, where, this, ins));
    Step step{kernels_.back().get(), 0, 0, 0, 0, 0, 0};
    step.in = static_cast<uint32_t>(refs_.size());
    step.n_in = static_cast<uint32_t>(ins.size());
    refs_.insert(refs_.end(), ins.begin(), ins.end());
    step.out = static_cast<uint32_t>(refs_.size());
    for (const ir::Value* v : node->outputs) refs_.push_back(slot(v));
    step.n_out = static_cast<uint32_t>(node->outputs.size());
    steps_.push_back(step);
    step_where_.push_back(std::move(where));
  }
  // Frees: append each step's dying slots after all inputs/outputs are laid out.
  std::vector<std::vector<int32_t>> dying(steps_.size());
  for (size_t s = 0; s < last_use.size(); ++s)
    if (last_use[s] >= 0 && !pinned[s]) dying[static_cast<size_t>(last_use[s])].push_back(static_cast<int32_t>(s));
  for (size_t i = 0; i < steps_.size(); ++i) {
    steps_[i].free = static_cast<uint32_t>(refs_.size());
    steps_[i].n_free = static_cast<uint32_t>(dying[i].size());
    refs_.insert(refs_.end(), dying[i].begin(), dying[i].end());
  }
  // An output is moved out unless the slot is a constant, borrowed from the caller, or
  // listed twice among the outputs.
  for (int32_t s : output_slots_)
    output_shared_.push_back(constant_[static_cast<size_t>(s)] || borrowed_[static_cast<size_t>(s)] ||
                             std::count(output_slots_.begin(), output_slots_.end(), s) > 1);
  // What may be left after a run: outputs not taken.
  for (int32_t s : output_slots_)
    if (!constant_[static_cast<size_t>(s)] && !borrowed_[static_cast<size_t>(s)]) reset_slots_.push_back(s);
}

void Plan::run(RunContext& ctx) {
  Value* const* frame = slots_.data();
  const int32_t* refs = refs_.data();
  size_t i = 0;
  try {
    for (; i < steps_.size(); ++i) {
      const Step& st = steps_[i];
      KernelIO io(ctx, frame, {refs + st.in, st.n_in}, {refs + st.out, st.n_out});
      st.kernel->run(io);
      for (uint32_t k = 0; k < st.n_free; ++k) frame[refs[st.free + k]]->reset();
    }
  } catch (const Error& e) {
    clear_all();
    if (!e.where().empty()) throw;
    throw Error(e.kind(), step_where_[i], e.message());
  } catch (const std::bad_alloc&) {
    clear_all();
    throw Error(ErrorKind::BadInput, step_where_[i], "out of memory");
  } catch (const std::length_error&) {
    clear_all();
    throw Error(ErrorKind::BadInput, step_where_[i], "out of memory");
  }
}

void Plan::clear_all() {
  for (size_t s = 0; s < frame_.size(); ++s)
    if (!constant_[s]) frame_[s].reset();
  unbind();
}

Value Plan::take_output(size_t i) {
  Value& v = *slots_[static_cast<size_t>(output_slots_[i])];
  return output_shared_[i] ? v : std::move(v);
}

void Plan::unbind() {
  for (int32_t s : input_slots_) slots_[static_cast<size_t>(s)] = &unbound_;
  for (int32_t s : capture_slots_)
    if (!fixed_[static_cast<size_t>(s)]) slots_[static_cast<size_t>(s)] = &unbound_;
}

void Plan::reset() {
  for (int32_t s : reset_slots_) frame_[static_cast<size_t>(s)].reset();
  unbind();
}

}  // namespace bough::exec
