// Between numpy arrays (and lists, None) and bough values, copying only what must be copied.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "bough/session.h"

namespace bough::python {

// Looks up numpy's functions; called once when the module loads.
void init_numpy();

// The value for input `info` from a Python object: an array-like for a tensor, a list of
// them for a sequence, None for an empty optional. A C-contiguous aligned array of the
// element type is wrapped without a copy (the Tensor holds a reference to the array);
// anything else is converted into a new buffer. bfloat16, float8 and float4 inputs may be
// given as float32 arrays and int4/int2 (uint4/uint2) as int8 (uint8): they are cast.
Value to_value(pybind11::handle object, const ValueInfo& info);

// The Python form of an output: a numpy array that holds bough's buffer without a copy (for
// numeric and bool tensors), a list for a sequence, None for an empty optional. Strings come
// back as an object array of str; bfloat16, float8 and float4 as float32 and int4/int2
// (uint4/uint2) as int8 (uint8), converted.
pybind11::object to_python(Value value);

}  // namespace bough::python
