#include "bough/session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>

#include "bough/error.h"
#include "exec/operators.h"
#include "exec/plan.h"
#include "exec/profiler.h"
#include "infer/validate.h"
#include "ir/clone.h"
#include "ir/graph.h"
#include "ir/memory_limit.h"
#include "ir/storage.h"
#include "ops/variables.h"
#include "passes/pipeline.h"
#include "passes/rewrite.h"
#include "util/cpu_cores.h"
#include "util/thread_pool.h"

namespace bough {

namespace {

// Why a caller's value does not fit the declared type `t`, as "has ..., the model expects
// ..."; empty when it fits. Kind, element type and known dims are checked all the way down:
// a sequence's items, an optional's value (or none).
std::string misfit(const ir::Type& t, const Value& v) {
  using K = ir::Type::Kind;
  const std::string expects = ", the model expects ";
  switch (t.kind) {
    case K::Tensor: {
      if (!v.is_tensor()) return "is " + describe(v) + expects + ir::to_string(t);
      const Tensor& x = v.tensor();
      if (t.elem != ElemType::Undefined && x.type() != t.elem)
        return "has element type " + std::string(elem_name(x.type())) + expects +
               std::string(elem_name(t.elem));
      if (!t.shape.rank_known) return "";
      bool ok = t.shape.dims.size() == x.rank();
      for (size_t i = 0; ok && i < x.rank(); ++i)
        ok = !t.shape.dims[i].is_known() || t.shape.dims[i].value == x.dim(i);
      return ok ? "" : "has shape " + shape_string(x.shape()) + expects + ir::to_string(t.shape);
    }
    case K::Sequence: {
      if (!v.is_sequence()) return "is " + describe(v) + expects + ir::to_string(t);
      if (!t.inner) return "";
      const ir::Type& item = *t.inner;
      if (item.kind == K::Tensor && item.elem != ElemType::Undefined &&
          v.seq().elem != ElemType::Undefined && v.seq().elem != item.elem)
        return "is a sequence of " + std::string(elem_name(v.seq().elem)) + " tensors" + expects +
               ir::to_string(t);
      for (size_t i = 0; i < v.seq().items.size(); ++i)
        if (std::string why = misfit(item, v.seq().items[i]); !why.empty())
          return "item " + std::to_string(i) + " " + why;
      return "";
    }
    case K::Optional: {
      if (v.is_none() || !t.inner) return "";
      const bool kind_fits = (t.inner->kind == K::Tensor && v.is_tensor()) ||
                             (t.inner->kind == K::Sequence && v.is_sequence());
      return kind_fits ? misfit(*t.inner, v) : "is " + describe(v) + expects + ir::to_string(t);
    }
    default:
      return "";
  }
}

// Checks a caller's value against the input's declared type.
void check_input(const ir::Edge& decl, const Value& value, const std::string& model_path) {
  if (std::string why = misfit(decl.type, value); !why.empty())
    fail(ErrorKind::BadInput, model_path + ": input '" + decl.name + "'", why);
}

// How a session checks a model before and after its passes: running refuses only what has
// no defined meaning (the check's first such error is the session's error). A declared shape
// that inference contradicts, a type outside an old version's list that the newest allows,
// or nodes out of topological order do not stop a run: it runs by the shapes it meets, in
// sorted order, as ONNX Runtime does, and the check warns.
infer::ValidateOptions run_check(const SessionOptions& options) {
  infer::ValidateOptions validate;
  validate.check.allow_newer_opset = options.allow_newer_opset;
  validate.infer.shape_conflicts_are_errors = false;
  validate.infer.old_type_lists_are_errors = false;
  validate.check.unsorted_nodes_are_errors = false;
  validate.check.shape_conflicts_are_errors = false;
  return validate;
}

std::vector<const passes::Pass*> pipeline_of(Optimization level) {
  return level == Optimization::none  ? std::vector<const passes::Pass*>{}
         : level == Optimization::all ? passes::all_pipeline()
                                      : passes::basic_pipeline();
}

// Buffers made by this thread until the end of the scope are run-local (see Storage).
class PlainCounts {
 public:
  PlainCounts() : was_(Storage::plain_counts) { Storage::plain_counts = true; }
  ~PlainCounts() { Storage::plain_counts = was_; }
  PlainCounts(const PlainCounts&) = delete;
  PlainCounts& operator=(const PlainCounts&) = delete;

 private:
  bool was_;
};

// Makes `v` the only holder of its buffers, so that writing into a returned output changes
// nothing else: a tensor that anything else still holds (a constant of the model, the
// caller's input, another output, a view of either) is copied. Sequences are rare and
// their items may be held through a shared list, so they are always copied.
void own_buffers(Value& v) {
  if (v.is_tensor()) {
    if (!v.tensor().unique()) v = v.tensor().clone();
  } else if (v.is_sequence()) {
    std::vector<Value> items;
    for (const Value& item : v.seq().items) {
      Value copy = item;  // held twice now, so own_buffers copies it
      own_buffers(copy);
      items.push_back(std::move(copy));
    }
    v = Value::sequence(v.seq().elem, std::move(items));
  }
}

// The pool's region hook: while the run's thread shares a parallel region with the
// workers, they may touch the same buffers, so it counts references atomically.
void count_atomically_in_parallel(bool entering) {
  static thread_local bool was_plain = false;
  if (entering) {
    was_plain = Storage::plain_counts;
    Storage::plain_counts = false;
  } else {
    Storage::plain_counts = was_plain;
  }
}

bool is_input(const ir::Graph& g, const ir::Edge* v) {
  return std::find(g.inputs.begin(), g.inputs.end(), v) != g.inputs.end();
}

// Moves the initializers of the model's graphs (not inputs' defaults, nor those of function
// bodies, which are compiled once per call) into `taken`, for the plan to own alone: it then
// frees each weight that every reader prepared as soon as they are built, before the next
// weights are prepared.
void take_initializers(ir::Model& m, exec::HandedOver& taken) {
  passes::for_each_graph(m, [&](ir::Graph& g) {
    for (ir::Edge* v : g.initializers) {
      if (!v->data || is_input(g, v)) continue;
      taken.emplace(v, std::move(*v->data));
      v->data.reset();
    }
  });
}

// Drops the constant tensors of `g` (initializers that are not inputs, Constant nodes'
// values) once the plan is built: the plan holds those it reads, and this copy's references
// would keep alive, beside their prepared forms, the weights that every reader prepared
// and the plan dropped (Plan::constant_bytes).
void drop_constants(ir::Graph& g) {
  for (ir::Edge* v : g.initializers)
    if (!is_input(g, v)) v->data.reset();
  for (const auto& node : g.nodes)
    if (node->op_type == "Constant" && node->domain.empty())
      for (ir::Attribute& a : node->attributes)
        if (a.kind == ir::Attribute::Kind::Tensor) a.t = Tensor();
}

void drop_constants(ir::Model& m) {
  passes::for_each_graph(m, [](ir::Graph& g) { drop_constants(g); });
  for (const auto& fn : m.functions) drop_constants(*fn->body);
}

// An input or output as the public API describes it.
ValueInfo value_info(const ir::Edge& e, const ir::Type& t) {
  ValueInfo info;
  info.name = e.name;
  info.type = ir::to_string(t);
  const ir::Type* tensor = &t;
  while (tensor->inner) tensor = tensor->inner.get();
  if (tensor->kind != ir::Type::Kind::Tensor) return info;
  info.elem = tensor->elem;
  info.rank_known = tensor->shape.rank_known;
  for (const ir::Dim& d : tensor->shape.dims)
    info.shape.push_back({d.is_known() ? d.value : -1, d.symbol});
  return info;
}

// The pool's size for SessionOptions::threads.
int thread_count(int threads) {
  if (threads < 0)
    fail(ErrorKind::BadInput, "",
         "SessionOptions::threads must be 0 (one per physical core) or more, got " +
             std::to_string(threads));
  return threads == 0 ? util::physical_cores() : threads;
}

// The elements of the tensors among `inputs`.
int64_t input_elements(const NamedValues& inputs) {
  int64_t n = 0;
  for (const auto& named : inputs)
    if (named.second.is_tensor()) n += named.second.tensor().numel();
  return n;
}

}  // namespace

struct Session::Impl {
  Model model;
  util::ThreadPool pool;
  std::unique_ptr<exec::Plan> plan;
  std::vector<std::string> inputs, outputs;
  std::vector<ValueInfo> input_infos, output_infos;
  std::vector<std::string> warnings;  // what the check warned of, `place: message`
  std::vector<Value> defaults;        // per graph input: its initializer default, if any
  double time_limit_seconds;
  size_t memory_limit_bytes;
  std::atomic<bool> cancelled{false};
  exec::ProfileRecords profiled;  // run_profiled's buffers
  ops::Variables variables;       // a stateful model's variables, kept from run to run
  exec::RunChoice run_choice;     // with workers: whether runs go better all on one thread

  // `m` is released once its copy is optimized: when it was the caller's last reference
  // (Session(Model&&)), the plan then owns the weights alone and frees each one its readers
  // prepared before the next is prepared.
  Impl(Model m, SessionOptions options)
      : model(std::shared_ptr<ir::Model>()),
        pool(thread_count(options.threads), count_atomically_in_parallel),
        time_limit_seconds(options.time_limit_seconds),
        memory_limit_bytes(options.memory_limit_bytes) {
    exec::register_operators();
    passes::PipelineOptions pipeline;
    pipeline.passes = pipeline_of(options.optimization);
    pipeline.check = run_check(options);
    passes::Optimized optimized = passes::optimize(
        m.ir(), pipeline, [this](const ir::Model& checked, const infer::Inferred& types) {
          describe_inputs_and_outputs(checked, types);
        });
    for (const check::Diagnostic& d : optimized.warnings)
      warnings.push_back(d.place.empty() ? d.message : d.place + ": " + d.message);
    std::shared_ptr<ir::Model> planned = std::move(optimized.model);
    m = Model(std::shared_ptr<ir::Model>());
    exec::HandedOver initializers;
    take_initializers(*planned, initializers);
    exec::CompileEnv env{planned.get(), nullptr, nullptr};
    env.handed_over = &initializers;
    plan = exec::Plan::compile(*planned->graph, env);
    drop_constants(*planned);
    model = Model(std::move(planned));
    // The weights dropped, and what folding and preparing them left behind, went to the
    // buffer cache, where no run would ask for their sizes: give them back now.
    ir::free_cached_buffers();
  }

  // The inputs and outputs of the valid model `m` as the public API describes them.
  void describe_inputs_and_outputs(const ir::Model& m, const infer::Inferred& types) {
    for (const ir::Edge* v : m.graph->inputs) {
      inputs.push_back(v->name);
      input_infos.push_back(value_info(*v, types.type_of(v)));
      input_infos.back().has_default = v->data.has_value();
      defaults.push_back(v->data ? Value(*v->data) : Value());
    }
    for (const ir::Edge* v : m.graph->outputs) {
      outputs.push_back(v->name);
      output_infos.push_back(value_info(*v, types.type_of(v)));
    }
  }
};

Session::Session(const Model& model, SessionOptions options)
    : impl_(std::make_unique<Impl>(model, options)) {}
Session::Session(Model&& model, SessionOptions options)
    : impl_(std::make_unique<Impl>(std::move(model), options)) {}
Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

const std::vector<std::string>& Session::input_names() const { return impl_->inputs; }
const std::vector<std::string>& Session::output_names() const { return impl_->outputs; }
const std::vector<ValueInfo>& Session::inputs() const { return impl_->input_infos; }
const std::vector<ValueInfo>& Session::outputs() const { return impl_->output_infos; }
const std::vector<std::string>& Session::warnings() const { return impl_->warnings; }
int Session::threads() const { return impl_->pool.threads(); }
void Session::cancel() { impl_->cancelled.store(true, std::memory_order_relaxed); }
void Session::reset_state() { impl_->variables.reset(); }

NamedValues Session::run_profiled(const NamedValues& inputs, RunProfile& profile) {
  // Kept from run to run, so that recording allocates nothing once it has grown.
  exec::ProfileRecords& records = impl_->profiled;
  records.clear();
  NamedValues out;
  const int64_t start = exec::Profiler::now_ns();
  {
    exec::Profiler profiler(records);
    out = run(inputs);
  }
  profile.run_ns = exec::Profiler::now_ns() - start;
  // Places without the model path that errors start with.
  const std::string& path = impl_->model.ir().path;
  const size_t prefix = path.empty() ? 0 : path.size() + 2;
  profile.nodes.clear();
  profile.nodes.reserve(records.steps.size());
  auto tensor = [&](size_t k) {
    const exec::TensorRecord& r = records.tensors[k];
    const int64_t* dims = records.dims.data() + r.dims_at;
    return ProfiledTensor{r.elem, {dims, dims + r.rank}, r.bytes, r.constant};
  };
  for (const exec::StepTiming& s : records.steps) {
    NodeTiming& t = profile.nodes.emplace_back();
    t = {s.where->substr(std::min(prefix, s.where->size())),
         *s.op,
         s.start_ns - start,
         s.duration_ns,
         s.self_ns,
         s.depth,
         {},
         {}};
    for (size_t k = 0; k < s.n_inputs; ++k) t.inputs.push_back(tensor(s.tensors_at + k));
    for (size_t k = 0; k < s.n_outputs; ++k)
      t.outputs.push_back(tensor(s.tensors_at + s.n_inputs + k));
  }
  return out;
}

NamedValues Session::run(const NamedValues& inputs) {
  Impl& s = *impl_;
  const ir::Graph& g = *s.model.ir().graph;
  const std::string& path = s.model.ir().path;
  for (const auto& named : inputs)
    if (std::find(s.inputs.begin(), s.inputs.end(), named.first) == s.inputs.end())
      fail(ErrorKind::BadInput, path, "the model has no input named '" + named.first + "'");
  // Inputs are read in place from the caller's values for the length of the run.
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ir::Edge* decl = g.inputs[i];
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&](const auto& p) { return p.first == decl->name; });
    if (it != inputs.end()) {
      check_input(*decl, it->second, path);
      s.plan->bind_input(i, it->second);
    } else if (decl->data) {
      s.plan->bind_input(i, s.defaults[i]);
    } else {
      s.plan->reset();
      fail(ErrorKind::BadInput, path, "missing input '" + decl->name + "'");
    }
  }
  ops::RunContext ctx{&s.pool, &s.cancelled};
  s.cancelled.store(false, std::memory_order_relaxed);
  if (s.time_limit_seconds > 0) {
    const auto limit = std::chrono::duration<double>(s.time_limit_seconds);
    ctx.deadline_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch() + limit)
                          .count();
  }
  bool timed = false;
  const exec::RunWay way = s.pool.threads() > 1
                               ? s.run_choice.way_for(input_elements(inputs), timed)
                               : exec::RunWay::ByChoices;
  ctx.node_choices = way == exec::RunWay::ByChoices;
  NamedValues out;
  ir::MemoryLimitScope memory_limit(s.memory_limit_bytes);
  ops::VariablesScope state_scope(&s.variables);
  try {
    PlainCounts plain;
    // Alone: every region inline; split: every region as the cost rule says. Timed: the
    // run's own regions (of nodes that settled as never splitting) noted like its nodes', so
    // that the run choice sees every wish.
    std::optional<exec::ChosenRun> policy;
    if (!ctx.node_choices || timed)
      policy.emplace(util::ThreadPool::NodePolicy{.serial = way == exec::RunWay::Alone});
    if (timed) exec::take_wanted_split();
    const int64_t start = timed ? exec::Profiler::now_ns() : 0;
    s.plan->run(ctx);
    if (timed) {
      const int64_t ns = exec::Profiler::now_ns() - start;
      policy.reset();
      s.run_choice.record(ns, exec::take_wanted_split());
    }
    for (size_t i = 0; i < s.outputs.size(); ++i)
      out.emplace_back(s.outputs[i], s.plan->take_output(i));
  } catch (...) {
    s.plan->reset();
    s.variables.discard();  // a failed run leaves the variables as they were
    throw;
  }
  s.variables.commit();
  s.plan->reset();  // first, so that the plan no longer holds what it returns
  for (auto& named : out) {
    own_buffers(named.second);
    ir::share(named.second);
  }
  return out;
}

}  // namespace bough
