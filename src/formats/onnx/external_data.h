// External tensor data: the `location`, `offset` and `length` entries of a TensorProto.
#pragma once

#include <string>

#include "onnx.pb.h"

namespace bough::onnx {

// Reads the `nbytes` bytes an external-data TensorProto refers to (a `length` entry must
// say the same; without one, the data is the `nbytes` bytes at `offset`). Refuses a location
// that is absolute, resolves outside `model_dir` (through "..", or a symlink) or is not a
// regular file, and never reads more than `nbytes`.
std::string read_external_data(const onnxpb::TensorProto& proto, const std::string& model_dir,
                               int64_t nbytes, const std::string& where);

}  // namespace bough::onnx
