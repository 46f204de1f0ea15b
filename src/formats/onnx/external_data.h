// External tensor data: the `location`, `offset` and `length` entries of a TensorProto.
#pragma once

#include <string>

#include "onnx.pb.h"

namespace bough::onnx {

// Reads the bytes an external-data TensorProto refers to. Refuses a location that is
// absolute or resolves outside `model_dir` (through "..", or a symlink).
std::string read_external_data(const onnxpb::TensorProto& proto, const std::string& model_dir,
                               const std::string& where);

}  // namespace bough::onnx
