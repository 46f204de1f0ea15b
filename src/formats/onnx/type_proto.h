// TypeProto <-> ir::Type.
#pragma once

#include <string>

#include "ir/types.h"
#include "onnx.pb.h"

namespace bough::onnx {

ir::Type type_from_proto(const onnxpb::TypeProto& proto, const std::string& where);
void type_to_proto(const ir::Type& type, onnxpb::TypeProto* proto);

}  // namespace bough::onnx
