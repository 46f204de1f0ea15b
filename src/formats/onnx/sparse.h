// SparseTensorProto -> dense Tensor (sparse initializers and sparse attribute values).
#pragma once

#include <string>

#include "bough/tensor.h"
#include "onnx.pb.h"

namespace bough::onnx {

Tensor dense_from_sparse(const onnxpb::SparseTensorProto& proto, const std::string& model_dir,
                         const std::string& where);

}  // namespace bough::onnx
