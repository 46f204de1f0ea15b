// NumPy .npy files (format versions 1-3, little-endian, C order).
#pragma once

#include <string>

#include "bough/tensor.h"

namespace bough::npy {

Tensor read_npy(const std::string& path);
std::string encode_npy(const Tensor& tensor);
// Crash-safe write (temporary file, then rename).
void write_npy(const Tensor& tensor, const std::string& path);

}  // namespace bough::npy
