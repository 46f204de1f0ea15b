// Bool tensors read from bytes. The kernels hold bools as C++ bool, which must be the byte 0
// or 1 (Not computes !b, Equal compares bytes, Cast widens the byte), while ONNX raw_data, a
// .npy file, a numpy array or IR weights may hold any byte, each nonzero one meaning true.
// Every place where bytes become a bool tensor normalizes them first.
#pragma once

#include <cstddef>

namespace bough::util {

// Whether any of the `n` bytes at `data` is neither 0 nor 1.
bool has_non_boolean_bytes(const void* data, size_t n);

// Writes 1 over every byte of the `n` at `data` that is neither 0 nor 1.
void normalize_bools(void* data, size_t n);

}  // namespace bough::util
