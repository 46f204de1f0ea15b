#include "model_source.h"

#include <string>

namespace py = pybind11;

namespace bough::python {

std::string path_string(py::handle path) {
  return py::str(py::module_::import("os").attr("fspath")(path));
}

Model load_model(py::handle source) {
  if (py::isinstance<py::bytes>(source)) {
    std::string bytes = source.cast<std::string>();
    py::gil_scoped_release unlocked;
    return Model::load_bytes(bytes);
  }
  std::string path = path_string(source);
  py::gil_scoped_release unlocked;
  return Model::load(path);
}

const char* kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidModel:
      return "invalid_model";
    case ErrorKind::Unsupported:
      return "unsupported";
    case ErrorKind::BadInput:
      return "bad_input";
    case ErrorKind::IO:
      return "io";
    case ErrorKind::Stopped:
      return "stopped";
  }
  return "";
}

}  // namespace bough::python
