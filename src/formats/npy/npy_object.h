// The data of an object-dtype .npy file ('|O'): numpy stores the array as a Python pickle.
// bough reads the subset of the pickle format numpy writes for an array of str or bytes
// (protocols 2-5: the ndarray rebuilt by numpy's _reconstruct, its dtype, its shape and a
// list of the elements in C order) with a closed stack machine: no pickle code is run, the
// only callables are the two numpy names, and anything else - another opcode, another
// class, a nested object, an element that is not a string, truncation - is refused. Memory
// stays within a bound set by the size of the pickle.
#pragma once

#include <string>
#include <string_view>

#include "bough/tensor.h"

namespace bough::npy {

// The string tensor of shape `shape` (the .npy header's) that `pickle` holds; `path` names
// the file in errors. str elements are their UTF-8 bytes, bytes elements as they are.
Tensor decode_object_array(std::string_view pickle, const Dims& shape, const std::string& path);

}  // namespace bough::npy
