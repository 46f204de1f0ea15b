// bough._core._Session, NodeArg and _RunOptions: the C++ half of bough.InferenceSession
// (python/bough/session.py), over bough::Session, with numpy arrays in and out (see
// numpy_values.h for what is copied).
#pragma once

#include <pybind11/pybind11.h>

namespace bough::python {

void add_inference_session(pybind11::module_& m);

}  // namespace bough::python
