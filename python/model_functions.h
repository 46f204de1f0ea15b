// bough.check, bough.infer, bough.optimize and bough.convert (bough/model_tools.h).
#pragma once

#include <pybind11/pybind11.h>

namespace bough::python {

void add_model_functions(pybind11::module_& m);

}  // namespace bough::python
