// The extension bough._core: the bindings the Python package bough (python/bough/) is made
// of. Errors, the session's C++ half (inference_session.h) and the model functions.
#include <pybind11/pybind11.h>

#include "bough/error.h"
#include "inference_session.h"
#include "model_functions.h"
#include "model_source.h"
#include "numpy_values.h"
#include "text.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  using namespace bough::python;
  m.doc() = "bough's bindings; import bough, which adds ONNX Runtime's Python API over them";
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

  add_inference_session(m);
  add_model_functions(m);
}
