// The Python module `bough`: an InferenceSession shaped like ONNX Runtime's, over
// bough::Session, with numpy arrays in and out (see numpy_values.h for what is copied).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"
#include "model_functions.h"
#include "model_source.h"
#include "numpy_values.h"
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

class InferenceSession {
 public:
  // sess_options may be ONNX Runtime's SessionOptions: its intra_op_num_threads, when set,
  // is the thread count. Only the CPU provider exists; `providers` is accepted for
  // compatibility.
  InferenceSession(py::handle source, py::handle sess_options, py::handle /*providers*/,
                   std::optional<int> threads, bool allow_newer_opset,
                   const std::string& optimization) {
    SessionOptions options;
    options.allow_newer_opset = allow_newer_opset;
    if (optimization == "none")
      options.optimization = Optimization::none;
    else if (optimization == "basic")
      options.optimization = Optimization::basic;
    else if (optimization != "all")
      throw py::value_error("optimization must be 'none', 'basic' or 'all', not '" + optimization +
                            "'");
    if (!sess_options.is_none() && py::hasattr(sess_options, "intra_op_num_threads")) {
      int n = sess_options.attr("intra_op_num_threads").cast<int>();
      if (n > 0) options.threads = n;
    }
    if (threads) options.threads = *threads;
    if (options.threads < 1) throw py::value_error("threads must be at least 1");
    Model model = load_model(source);
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

  py::list run(py::object output_names, py::dict feed, py::handle /*run_options*/) {
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
      outputs = session_->run(inputs);
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

 private:
  static std::vector<NodeArg> node_args(const std::vector<ValueInfo>& infos, bool defaulted) {
    std::vector<NodeArg> args;
    for (const ValueInfo& info : infos)
      if (info.has_default == defaulted) args.push_back(node_arg(info));
    return args;
  }

  // Indices into the outputs for `names` (None: all of them, in graph order).
  std::vector<size_t> output_indices(py::handle names) const {
    const std::vector<std::string>& all = session_->output_names();
    std::vector<size_t> indices;
    if (names.is_none()) {
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

  std::optional<Session> session_;
  std::string path_;
  // A Session runs one call at a time; Python threads share an InferenceSession.
  std::mutex running_;
};

}  // namespace

}  // namespace bough::python

PYBIND11_MODULE(bough, m) {
  using namespace bough::python;
  m.doc() = "bough: run ONNX and OpenVINO IR models with control flow, like onnxruntime";
  m.attr("__version__") = BOUGH_VERSION;
  init_numpy();

  // bough.Error(RuntimeError): the message is bough's ("model.onnx: main/If ...: ..."),
  // and `kind` says which: "invalid_model", "unsupported", "bad_input", "io" or "stopped".
  static py::exception<bough::Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const bough::Error& e) {
      py::object instance = py::handle(error.ptr())(message_to_python(e.what()));
      instance.attr("kind") = kind_name(e.kind());
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });

  py::class_<NodeArg>(m, "NodeArg", "An input or output: name, type and shape")
      .def_readonly("name", &NodeArg::name)
      .def_readonly("type", &NodeArg::type, "as ONNX Runtime spells it: 'tensor(float)'")
      .def_readonly("shape", &NodeArg::shape, "ints, symbol strings, None; None if unranked")
      .def("__repr__", [](const NodeArg& a) {
        return "NodeArg(name=" + std::string(py::repr(a.name)) +
               ", type=" + std::string(py::repr(py::str(a.type))) +
               ", shape=" + std::string(py::repr(a.shape)) + ")";
      });

  py::class_<InferenceSession>(m, "InferenceSession",
                               "A model compiled once and run many times, like onnxruntime's")
      .def(py::init<py::handle, py::handle, py::handle, std::optional<int>, bool,
                    const std::string&>(),
           "path_or_bytes"_a, "sess_options"_a = py::none(), "providers"_a = py::none(),
           py::kw_only(), "threads"_a = py::none(), "allow_newer_opset"_a = false,
           "optimization"_a = "all")
      .def("get_inputs", &InferenceSession::get_inputs)
      .def("get_outputs", &InferenceSession::get_outputs)
      .def("get_overridable_initializers", &InferenceSession::get_overridable_initializers)
      .def("get_warnings", &InferenceSession::get_warnings,
           "What the check found that does not stop a run (`place: message`), such as a "
           "declared shape the computation contradicts")
      .def("get_providers",
           [](const InferenceSession&) { return std::vector<std::string>{"CPUExecutionProvider"}; })
      .def("run", &InferenceSession::run, "output_names"_a, "input_feed"_a,
           "run_options"_a = py::none(),
           "Runs once; returns the outputs named (None: all) as numpy arrays, lists for "
           "sequences, None for an empty optional");

  add_model_functions(m);
}
