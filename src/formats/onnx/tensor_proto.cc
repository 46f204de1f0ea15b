#include "formats/onnx/tensor_proto.h"

#include <cstring>

#include "bough/error.h"
#include "formats/onnx/external_data.h"
#include "util/files.h"

namespace bough::onnx {

namespace {

Dims dims_from_proto(const onnxpb::TensorProto& proto, const std::string& where) {
  Dims dims;
  for (int64_t d : proto.dims()) {
    if (d < 0) fail(ErrorKind::InvalidModel, where, "tensor has a negative dimension");
    dims.push_back(d);
  }
  return dims;
}

void check_count(int64_t have, int64_t want, const char* field, const std::string& where) {
  if (have != want)
    fail(ErrorKind::InvalidModel, where,
         std::string("tensor ") + field + " holds " + std::to_string(have) +
             " values, its shape needs " + std::to_string(want));
}

// Copies a repeated proto field into the tensor's buffer, narrowing each value to T.
template <typename T, typename Field>
void copy_field(const Field& field, Tensor* t, int64_t want, const char* name,
                const std::string& where) {
  check_count(field.size(), want, name, where);
  T* out = t->data<T>();
  for (int64_t i = 0; i < want; ++i) out[i] = static_cast<T>(field.Get(static_cast<int>(i)));
}

void fill_from_typed_fields(const onnxpb::TensorProto& p, Tensor* t, const std::string& where) {
  int64_t n = t->numel();
  switch (t->type()) {
    case ElemType::Float:
      return copy_field<float>(p.float_data(), t, n, "float_data", where);
    case ElemType::Complex64:
      return copy_field<float>(p.float_data(), t, 2 * n, "float_data", where);
    case ElemType::Double:
      return copy_field<double>(p.double_data(), t, n, "double_data", where);
    case ElemType::Complex128:
      return copy_field<double>(p.double_data(), t, 2 * n, "double_data", where);
    case ElemType::Int64:
      return copy_field<int64_t>(p.int64_data(), t, n, "int64_data", where);
    case ElemType::UInt32:
      return copy_field<uint32_t>(p.uint64_data(), t, n, "uint64_data", where);
    case ElemType::UInt64:
      return copy_field<uint64_t>(p.uint64_data(), t, n, "uint64_data", where);
    case ElemType::Int32:
      return copy_field<int32_t>(p.int32_data(), t, n, "int32_data", where);
    case ElemType::Int16:
      return copy_field<int16_t>(p.int32_data(), t, n, "int32_data", where);
    case ElemType::UInt16:
    case ElemType::Float16:
    case ElemType::BFloat16:
      return copy_field<uint16_t>(p.int32_data(), t, n, "int32_data", where);
    case ElemType::Bool: {
      check_count(p.int32_data_size(), n, "int32_data", where);
      for (int64_t i = 0; i < n; ++i) t->data<bool>()[i] = p.int32_data(static_cast<int>(i)) != 0;
      return;
    }
    case ElemType::String: {
      check_count(p.string_data_size(), n, "string_data", where);
      for (int64_t i = 0; i < n; ++i) t->strings()[i] = p.string_data(static_cast<int>(i));
      return;
    }
    default:
      // int8/uint8, the float8 types: one element per int32; the sub-byte types: one packed
      // byte per int32.
      return copy_field<uint8_t>(p.int32_data(), t, static_cast<int64_t>(t->nbytes()), "int32_data",
                                 where);
  }
}

}  // namespace

Tensor tensor_from_proto(const onnxpb::TensorProto& p, const std::string& model_dir,
                         const std::string& where) {
  if (!is_valid_elem_code(p.data_type()))
    fail(ErrorKind::InvalidModel, where,
         "tensor has unknown data_type " + std::to_string(p.data_type()));
  auto type = static_cast<ElemType>(p.data_type());
  Tensor t(type, dims_from_proto(p, where));
  if (p.data_location() == onnxpb::TensorProto::EXTERNAL) {
    if (type == ElemType::String)
      fail(ErrorKind::InvalidModel, where, "string tensors cannot use external data");
    std::string bytes = read_external_data(p, model_dir, where);
    check_count(static_cast<int64_t>(bytes.size()), static_cast<int64_t>(t.nbytes()),
                "external data (bytes)", where);
    if (!bytes.empty()) std::memcpy(t.raw(), bytes.data(), bytes.size());
  } else if (p.has_raw_data()) {
    if (type == ElemType::String)
      fail(ErrorKind::InvalidModel, where, "string tensors cannot use raw_data");
    check_count(static_cast<int64_t>(p.raw_data().size()), static_cast<int64_t>(t.nbytes()),
                "raw_data (bytes)", where);
    if (t.nbytes()) std::memcpy(t.raw(), p.raw_data().data(), t.nbytes());
  } else {
    fill_from_typed_fields(p, &t, where);
  }
  return t;
}

void tensor_to_proto(const Tensor& t, onnxpb::TensorProto* p) {
  p->set_data_type(static_cast<int>(t.type()));
  for (int64_t d : t.shape()) p->add_dims(d);
  if (t.type() == ElemType::String) {
    for (int64_t i = 0; i < t.numel(); ++i) p->add_string_data(t.strings()[i]);
  } else {
    p->set_raw_data(t.raw(), t.nbytes());
  }
}

Value value_from_sequence(const onnxpb::SequenceProto& p, const std::string& where) {
  std::vector<Value> items;
  ElemType elem = ElemType::Undefined;
  for (const auto& t : p.tensor_values()) {
    items.emplace_back(tensor_from_proto(t, "", where));
    elem = items.back().tensor().type();
  }
  for (const auto& s : p.sequence_values()) items.push_back(value_from_sequence(s, where));
  for (const auto& o : p.optional_values()) items.push_back(value_from_optional(o, where));
  if (p.map_values_size() || p.sparse_tensor_values_size())
    fail(ErrorKind::Unsupported, where, "sequences of maps or sparse tensors");
  return Value::sequence(elem, std::move(items));
}

Value value_from_optional(const onnxpb::OptionalProto& p, const std::string& where) {
  if (p.has_tensor_value()) return tensor_from_proto(p.tensor_value(), "", where);
  if (p.has_sequence_value()) return value_from_sequence(p.sequence_value(), where);
  if (p.has_optional_value()) return value_from_optional(p.optional_value(), where);
  if (p.has_map_value() || p.has_sparse_tensor_value())
    fail(ErrorKind::Unsupported, where, "optional maps or sparse tensors");
  return Value::none();
}

Value read_value_file(const std::string& path, ProtoKind hint) {
  std::string bytes = read_file(path);
  auto parse_error = [&] { fail(ErrorKind::InvalidModel, path, "not a valid protobuf file"); };
  switch (hint) {
    case ProtoKind::Tensor: {
      onnxpb::TensorProto p;
      if (!p.ParseFromString(bytes)) parse_error();
      return tensor_from_proto(p, "", path);
    }
    case ProtoKind::Sequence: {
      onnxpb::SequenceProto p;
      if (!p.ParseFromString(bytes)) parse_error();
      return value_from_sequence(p, path);
    }
    case ProtoKind::Optional: {
      onnxpb::OptionalProto p;
      if (!p.ParseFromString(bytes)) parse_error();
      return value_from_optional(p, path);
    }
  }
  return {};
}

void write_tensor_file(const Tensor& tensor, const std::string& path) {
  onnxpb::TensorProto p;
  tensor_to_proto(tensor, &p);
  write_file_atomic(path, p.SerializeAsString());
}

}  // namespace bough::onnx
