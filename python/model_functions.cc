#include "model_functions.h"

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bough/model_tools.h"
#include "model_source.h"
#include "text.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bough::python {

namespace {

Optimization optimization_level(const std::string& name) {
  if (name == "none") return Optimization::none;
  if (name == "basic") return Optimization::basic;
  if (name == "all") return Optimization::all;
  throw py::value_error("level must be 'none', 'basic' or 'all', not '" + name + "'");
}

// The functions' result: the model's ONNX bytes when `output` is None, else the model saved
// there (ONNX, or OpenVINO IR for .xml) and None.
py::object bytes_or_saved(const Model& model, py::handle output) {
  if (output.is_none()) {
    std::string bytes;
    {
      py::gil_scoped_release unlocked;
      bytes = model.to_bytes();
    }
    return py::bytes(bytes);
  }
  std::string path = path_string(output);
  py::gil_scoped_release unlocked;
  model.save(path);
  return py::none();
}

std::string diagnostic_text(const Diagnostic& d) {
  std::string text = d.place.empty() ? "" : d.place + ": ";
  return text + (d.error ? "" : "warning: ") + d.message;
}

}  // namespace

void add_model_functions(py::module_& m) {
  py::class_<Diagnostic>(m, "Diagnostic", "One problem bough.check found, at its place")
      .def_property_readonly("severity",
                             [](const Diagnostic& d) { return d.error ? "error" : "warning"; })
      .def_property_readonly(
          "kind",
          [](const Diagnostic& d) -> py::object {
            if (!d.error) return py::none();
            return py::str(kind_name(d.kind));
          },
          "for an error, 'invalid_model' or 'unsupported'; None for a warning")
      .def_property_readonly(
          "place", [](const Diagnostic& d) { return message_to_python(d.place); },
          "where: 'main/If \"gate\"/then_branch/Add \"add_1\"', '' for the model")
      .def_property_readonly("message",
                             [](const Diagnostic& d) { return message_to_python(d.message); })
      .def("__str__", [](const Diagnostic& d) { return message_to_python(diagnostic_text(d)); })
      .def("__repr__", [](const Diagnostic& d) {
        return "<Diagnostic " + std::string(d.error ? "error" : "warning") + " " +
               std::string(py::repr(message_to_python(diagnostic_text(d)))) + ">";
      });

  m.def(
      "check",
      [](py::handle model, bool allow_newer_opset) {
        Model loaded = load_model(model, "model");
        py::gil_scoped_release unlocked;
        return check_model(loaded, CheckOptions{allow_newer_opset});
      },
      "model"_a, py::kw_only(), "allow_newer_opset"_a = false,
      "Every problem of the model (a path or its bytes) as a list of Diagnostic, errors and "
      "warnings; valid when none has severity 'error'. A file the reader refuses raises "
      "bough.Error.");

  m.def(
      "infer",
      [](py::handle model, py::handle output, bool allow_newer_opset) {
        Model loaded = load_model(model, "model");
        std::optional<Model> typed;
        {
          py::gil_scoped_release unlocked;
          typed = with_inferred_types(loaded, CheckOptions{allow_newer_opset});
        }
        return bytes_or_saved(*typed, output);
      },
      "model"_a, "output"_a = py::none(), py::kw_only(), "allow_newer_opset"_a = false,
      "The model with every value's inferred type and shape as value_info: its ONNX bytes, "
      "or saved to `output` (then None). Raises bough.Error if the model is invalid.");

  m.def(
      "optimize",
      [](py::handle model, py::handle output, const std::string& level,
         std::optional<std::vector<std::string>> passes, bool repair) {
        OptimizeOptions options{optimization_level(level),
                                passes.value_or(std::vector<std::string>{}), repair};
        Model loaded = load_model(model, "model");
        std::optional<Model> result;
        {
          py::gil_scoped_release unlocked;
          result = optimized(loaded, options);
        }
        return bytes_or_saved(*result, output);
      },
      "model"_a, "output"_a = py::none(), py::kw_only(), "level"_a = "basic",
      "passes"_a = py::none(), "repair"_a = false,
      "The model after the passes of `level` ('none', 'basic', 'all'), or of `passes` by "
      "name; `repair` first rewrites Ifs the check refuses but whose meaning is clear. Its "
      "ONNX bytes, or saved to `output` (then None).");

  m.def(
      "convert",
      [](py::handle model, py::handle output, std::optional<int> opset) {
        if (opset && !output.is_none() && path_string(output).ends_with(".xml"))
          throw py::value_error("opset applies to ONNX output only");
        Model loaded = load_model(model, "model");
        if (!opset) return bytes_or_saved(loaded, output);
        std::optional<Model> converted;
        {
          py::gil_scoped_release unlocked;
          converted = with_onnx_opset(loaded, *opset);
        }
        return bytes_or_saved(*converted, output);
      },
      "model"_a, "output"_a, py::kw_only(), "opset"_a = py::none(),
      "Saves the model to `output`: ONNX, or OpenVINO IR when it ends in .xml (its .bin "
      "beside it); `opset` sets the ai.onnx opset of ONNX output (refused, naming the nodes, "
      "where a node's meaning would change). Never writes over the model's own file.");
}

}  // namespace bough::python
