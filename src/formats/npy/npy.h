// NumPy .npy files (format versions 1-3): every numeric dtype, bool, strings (<U, S, and
// object arrays of str or bytes: npy_object.h), either byte order and Fortran order read; written
// little-endian, C order, strings as <U.
#pragma once

#include <string>

#include "bough/tensor.h"

namespace bough::npy {

Tensor read_npy(const std::string& path);
// The tensor a .npy file's `bytes` hold; `path` names it in errors. The header is parsed
// strictly and the data checked against the shape before anything is allocated.
Tensor decode_npy(std::string bytes, const std::string& path);
// Whether numpy has a dtype for `type` (what encode_npy can write).
bool has_dtype(ElemType type);
std::string encode_npy(const Tensor& tensor);
// Crash-safe write (temporary file, then rename).
void write_npy(const Tensor& tensor, const std::string& path);

}  // namespace bough::npy
