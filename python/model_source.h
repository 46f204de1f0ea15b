// What the module's parts share: reading a model given as a path or as bytes, and the names
// of error kinds.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "bough/error.h"
#include "bough/model.h"

namespace bough::python {

// A str or os.PathLike as a path string (os.fspath).
std::string path_string(pybind11::handle path);

// A model path (str or os.PathLike) or the model's bytes, read without the GIL.
Model load_model(pybind11::handle source);

// "invalid_model", "unsupported", "bad_input", "io" or "stopped".
const char* kind_name(ErrorKind kind);

}  // namespace bough::python
