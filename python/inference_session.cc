#include "inference_session.h"

#include <pybind11/stl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"
#include "exec/ort_profile.h"
#include "ir/graph.h"
#include "model_source.h"
#include "numpy_values.h"
#include "run_options.h"
#include "text.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bough::python {

namespace {

// ONNX Runtime's NodeArg: a name, the type without its shape ("tensor(float)"), and the
// shape as ints, symbol strings and None for a dimension that is neither.
struct NodeArg {
  py::str name;
  std::string type;
  py::object shape;
};

// "optional(tensor(float)[2,N])" -> "optional(tensor(float))".
std::string without_shapes(const std::string& type) {
  std::string out;
  int depth = 0;
  for (char c : type) {
    if (c == '[') ++depth;
    if (depth == 0) out += c;
    if (c == ']') --depth;
  }
  return out;
}

NodeArg node_arg(const ValueInfo& info) {
  NodeArg arg{name_to_python(info.name), without_shapes(info.type), py::none()};
  if (!info.rank_known) return arg;
  py::list shape;
  for (const Dim& d : info.shape) {
    if (d.known())
      shape.append(d.size);
    else if (!d.symbol.empty())
      shape.append(name_to_python(d.symbol));
    else
      shape.append(py::none());
  }
  arg.shape = shape;
  return arg;
}

// What ONNX Runtime's get_modelmeta() reports, taken from the model as it was read.
py::dict model_metadata(const ir::Model& m) {
  py::dict custom;
  for (const auto& [key, value] : m.metadata)
    custom[message_to_python(key)] = message_to_python(value);
  return py::dict("producer_name"_a = message_to_python(m.producer_name),
                  "graph_name"_a = message_to_python(m.graph->name),
                  "domain"_a = message_to_python(m.domain),
                  "description"_a = message_to_python(m.doc_string),
                  "graph_description"_a = message_to_python(m.graph->doc_string),
                  "version"_a = m.model_version, "custom_metadata_map"_a = custom);
}

int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One run measured while profiling: when it started (steady clock, as time.monotonic_ns()),
// on which thread, and its nodes.
struct ProfiledRun {
  int64_t start_ns;
  long thread;
  RunProfile profile;
};

// ONNX Runtime stops recording at a million events; so does a session here, keeping the runs
// but no longer their nodes, so that a long profiled loop cannot exhaust the memory.
constexpr size_t kMaxProfiledNodes = 1'000'000;

class InferenceSession {
 public:
  InferenceSession(py::handle source, int threads, bool allow_newer_opset,
                   const std::string& optimization, bool profile)
      : profiling_(profile) {
    SessionOptions options;
    options.allow_newer_opset = allow_newer_opset;
    if (optimization == "none")
      options.optimization = Optimization::none;
    else if (optimization == "basic")
      options.optimization = Optimization::basic;
    else if (optimization != "all")
      throw py::value_error("optimization must be 'none', 'basic' or 'all', not '" + optimization +
                            "'");
    if (threads < 0) throw py::value_error("threads must be 0 (one per physical core) or more");
    options.threads = threads;
    Model model = load_model(source, "path_or_bytes");
    metadata_ = model_metadata(model.ir());
    py::gil_scoped_release unlocked;
    path_ = model.path();
    session_.emplace(std::move(model), options);  // frees each weight it prepares as it plans
  }

  // Like ONNX Runtime: the inputs a run must be given, and apart from them those with a
  // default (an initializer of the same name) that a run may override.
  std::vector<NodeArg> get_inputs() const { return node_args(session_->inputs(), false); }
  std::vector<NodeArg> get_overridable_initializers() const {
    return node_args(session_->inputs(), true);
  }
  std::vector<NodeArg> get_outputs() const { return node_args(session_->outputs(), false); }
  std::vector<std::string> get_warnings() const { return session_->warnings(); }
  void reset_state() { session_->reset_state(); }
  int threads() const { return session_->threads(); }
  py::dict metadata() const { return metadata_; }

  py::list run(py::handle output_names, py::dict feed, py::handle run_options) {
    RunOptions* options = nullptr;
    if (!run_options.is_none()) {
      if (!py::isinstance<RunOptions>(run_options))
        throw py::type_error(std::string("run_options must be a bough.RunOptions, not ") +
                             Py_TYPE(run_options.ptr())->tp_name);
      options = run_options.cast<RunOptions*>();
    }
    std::vector<size_t> wanted = output_indices(output_names);
    NamedValues inputs;
    const std::vector<ValueInfo>& infos = session_->inputs();
    for (auto [key, object] : feed) {
      std::string name = name_from_python(key);
      auto it = std::find_if(infos.begin(), infos.end(),
                             [&](const ValueInfo& i) { return i.name == name; });
      if (it == infos.end())
        fail(ErrorKind::BadInput, path_, "the model has no input named '" + name + "'");
      inputs.emplace_back(name, to_value(object, *it));
    }
    NamedValues outputs;
    {
      py::gil_scoped_release unlocked;
      std::lock_guard<std::mutex> one_run_at_a_time(running_);
      RunOptions::Scope scope(options, *session_, path_);
      outputs = profiling_ ? run_profiled(inputs) : session_->run(inputs);
      scope.finish();
    }
    // Each array shares its output's buffer; an output named twice is copied the second
    // time, so that no two results share memory.
    py::list result;
    std::vector<py::object> given(outputs.size());
    for (size_t i : wanted) {
      if (given[i]) {
        result.append(py::module_::import("copy").attr("deepcopy")(given[i]));
        continue;
      }
      given[i] = to_python(outputs[i].second);
      result.append(given[i]);
    }
    return result;
  }

  // Stops profiling and returns what it recorded: a list of runs (start_ns, thread, run_ns,
  // nodes), each node (place, op, start_ns from the run's start, duration_ns, depth, ONNX
  // Runtime's args as JSON object members: exec::ort_node_args), how many runs lost their
  // nodes to the limit, and the summary per operator type (exec::op_summary_json).
  py::tuple end_profiling() {
    std::vector<ProfiledRun> runs;
    size_t trimmed = 0;
    {
      py::gil_scoped_release unlocked;
      std::lock_guard<std::mutex> lock(running_);
      profiling_ = false;
      runs.swap(profiled_);
      std::swap(trimmed, trimmed_runs_);
      profiled_nodes_ = 0;
    }
    py::list out;
    std::vector<const RunProfile*> profiles;
    int64_t runs_ns = 0;
    for (const ProfiledRun& r : runs) {
      py::list nodes;
      for (const NodeTiming& t : r.profile.nodes)
        nodes.append(py::make_tuple(message_to_python(t.place), message_to_python(t.op), t.start_ns,
                                    t.duration_ns, t.depth,
                                    message_to_python(exec::ort_node_args(t))));
      out.append(py::make_tuple(r.start_ns, r.thread, r.profile.run_ns, nodes));
      profiles.push_back(&r.profile);
      runs_ns += r.profile.run_ns;
    }
    return py::make_tuple(
        out, trimmed, message_to_python(exec::op_summary_json(exec::op_totals(profiles), runs_ns)));
  }

 private:
  static std::vector<NodeArg> node_args(const std::vector<ValueInfo>& infos, bool defaulted) {
    std::vector<NodeArg> args;
    for (const ValueInfo& info : infos)
      if (info.has_default == defaulted) args.push_back(node_arg(info));
    return args;
  }

  // Indices into the outputs for `names` (None or empty: all of them, in graph order, as in
  // ONNX Runtime).
  std::vector<size_t> output_indices(py::handle names) const {
    const std::vector<std::string>& all = session_->output_names();
    std::vector<size_t> indices;
    if (names.is_none() || py::len(names) == 0) {
      for (size_t i = 0; i < all.size(); ++i) indices.push_back(i);
      return indices;
    }
    for (py::handle n : names) {
      std::string name = name_from_python(n);
      auto it = std::find(all.begin(), all.end(), name);
      if (it == all.end())
        fail(ErrorKind::BadInput, path_, "the model has no output named '" + name + "'");
      indices.push_back(static_cast<size_t>(it - all.begin()));
    }
    return indices;
  }

  // A run while profiling, recorded; called holding running_.
  NamedValues run_profiled(const NamedValues& inputs) {
    ProfiledRun run{steady_now_ns(), static_cast<long>(gettid()), {}};
    NamedValues outputs = session_->run_profiled(inputs, run.profile);
    profiled_nodes_ += run.profile.nodes.size();
    if (profiled_nodes_ > kMaxProfiledNodes) {
      profiled_nodes_ -= run.profile.nodes.size();
      run.profile.nodes.clear();
      ++trimmed_runs_;
    }
    profiled_.push_back(std::move(run));
    return outputs;
  }

  std::optional<Session> session_;
  std::string path_;
  py::dict metadata_;
  // A Session runs one call at a time; Python threads share an InferenceSession. The
  // profiling state below is kept under the same lock.
  std::mutex running_;
  bool profiling_;
  std::vector<ProfiledRun> profiled_;
  size_t profiled_nodes_ = 0;
  size_t trimmed_runs_ = 0;
};

}  // namespace

void add_inference_session(py::module_& m) {
  py::class_<NodeArg>(m, "NodeArg", "An input or output: name, type and shape")
      .def_readonly("name", &NodeArg::name)
      .def_readonly("type", &NodeArg::type, "as ONNX Runtime spells it: 'tensor(float)'")
      .def_readonly("shape", &NodeArg::shape, "ints, symbol strings, None; None if unranked")
      .def("__repr__", [](const NodeArg& a) {
        return "NodeArg(name=" + std::string(py::repr(a.name)) +
               ", type=" + std::string(py::repr(py::str(a.type))) +
               ", shape=" + std::string(py::repr(a.shape)) + ")";
      });

  py::class_<RunOptions>(m, "_RunOptions", "RunOptions.terminate over the session's cancel")
      .def(py::init<>())
      .def_property("terminate", &RunOptions::terminate, &RunOptions::set_terminate,
                    "Set to True to stop the runs using these options (from any thread); "
                    "they raise bough.Error of kind 'stopped'. Set back to False to run again.");

  py::class_<InferenceSession>(m, "_Session", "The C++ half of bough.InferenceSession")
      .def(py::init<py::handle, int, bool, const std::string&, bool>(), "path_or_bytes"_a,
           py::kw_only(), "threads"_a = 0, "allow_newer_opset"_a = false, "optimization"_a = "all",
           "profile"_a = false)
      .def("get_inputs", &InferenceSession::get_inputs)
      .def("get_outputs", &InferenceSession::get_outputs)
      .def("get_overridable_initializers", &InferenceSession::get_overridable_initializers)
      .def_property_readonly("threads", &InferenceSession::threads,
                             "The threads its kernels may use, the caller's included: the "
                             "threads asked for, or one per physical core when that was 0")
      .def("get_warnings", &InferenceSession::get_warnings,
           "What the check found that does not stop a run (`place: message`), such as a "
           "declared shape the computation contradicts")
      .def("run", &InferenceSession::run, "output_names"_a, "input_feed"_a,
           "run_options"_a = py::none(),
           "Runs once; returns the outputs named (None or []: all) as numpy arrays, lists for "
           "sequences, None for an empty optional")
      .def("reset_state", &InferenceSession::reset_state,
           "Sets a stateful model's variables (OpenVINO's ReadValue and Assign) back to their "
           "initial values, as before the first run")
      .def("_metadata", &InferenceSession::metadata)
      .def("_end_profiling", &InferenceSession::end_profiling);
}

}  // namespace bough::python
