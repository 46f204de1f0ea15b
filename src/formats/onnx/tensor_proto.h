// TensorProto <-> Tensor, and the test-data containers (SequenceProto, OptionalProto)
// <-> runtime Values.
#pragma once

#include <string>

#include "bough/value.h"
#include "onnx.pb.h"

namespace bough::onnx {

// `model_dir` is where external data is looked up ("" forbids external data).
// `where` names the place for error messages.
Tensor tensor_from_proto(const onnxpb::TensorProto& proto, const std::string& model_dir,
                         const std::string& where);
// The same tensor, its data taken out of `proto` rather than copied: raw_data becomes the
// tensor's buffer, typed fields are cleared once read. The model reader uses this so a
// model's weights are held once while it is read.
Tensor take_tensor_from_proto(onnxpb::TensorProto* proto, const std::string& model_dir,
                              const std::string& where);
// The element count of a shape read from a file (negative sizes refused), failing for one
// no file could hold — so that a byte count computed from it cannot overflow.
int64_t checked_numel(const google::protobuf::RepeatedField<int64_t>& dims,
                      const std::string& where);

// Writes typed data as raw_data (strings as string_data).
void tensor_to_proto(const Tensor& tensor, onnxpb::TensorProto* proto);

Value value_from_sequence(const onnxpb::SequenceProto& proto, const std::string& where);
Value value_from_optional(const onnxpb::OptionalProto& proto, const std::string& where);

// Reads a .pb test file holding a TensorProto, SequenceProto or OptionalProto. The kind is
// chosen by `hint` (the type the model declares for that input or output); a MapProto is
// recognised and refused (BadInput): bough has no map values.
enum class ProtoKind { Tensor, Sequence, Optional };
Value read_value_file(const std::string& path, ProtoKind hint);
void write_tensor_file(const Tensor& tensor, const std::string& path);
// A value as the serialized message of `kind` (what read_value_file reads back): a tensor as
// a TensorProto, a sequence as a SequenceProto, any value as an OptionalProto.
std::string encode_value(const Value& value, ProtoKind kind);

}  // namespace bough::onnx
