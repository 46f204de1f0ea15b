#include "model_source.h"

#include <string>

namespace py = pybind11;

namespace bough::python {

std::string path_string(py::handle path) {
  return py::str(py::module_::import("os").attr("fspath")(path));
}

namespace {

Model load_bytes(const std::string& bytes) {
  py::gil_scoped_release unlocked;
  return Model::load_bytes(bytes);
}

}  // namespace

Model load_model(py::handle source, const char* what) {
  if (py::isinstance<py::bytes>(source)) return load_bytes(source.cast<std::string>());
  if (PyByteArray_Check(source.ptr()) || PyMemoryView_Check(source.ptr())) {
    auto bytes = py::reinterpret_steal<py::object>(PyBytes_FromObject(source.ptr()));
    if (!bytes) throw py::error_already_set();
    return load_bytes(bytes.cast<std::string>());
  }
  if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
    std::string path = path_string(source);
    py::gil_scoped_release unlocked;
    return Model::load(path);
  }
  // onnx.ModelProto, or any message that serializes itself as a model.
  if (py::hasattr(source, "SerializeToString")) {
    py::object bytes = source.attr("SerializeToString")();
    if (py::isinstance<py::bytes>(bytes)) return load_bytes(bytes.cast<std::string>());
  }
  throw py::type_error(std::string(what) +
                       " must be a path (str or os.PathLike), the model's bytes or an "
                       "onnx.ModelProto, not " +
                       Py_TYPE(source.ptr())->tp_name);
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
