// What the module's parts share: reading a model given as a path, as bytes or as an
// onnx.ModelProto, and the names of error kinds.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "bough/error.h"
#include "bough/model.h"

namespace bough::python {

// A str or os.PathLike as a path string (os.fspath).
std::string path_string(pybind11::handle path);

// The model `source` names: a path (str or os.PathLike), the model's bytes (bytes, bytearray,
// memoryview) or an object with SerializeToString (onnx.ModelProto), read without the GIL.
// Anything else raises TypeError naming the argument `what`.
Model load_model(pybind11::handle source, const char* what);

// "invalid_model", "unsupported", "bad_input", "io" or "stopped".
const char* kind_name(ErrorKind kind);

}  // namespace bough::python
