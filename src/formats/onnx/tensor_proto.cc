#include "formats/onnx/tensor_proto.h"

#include <cstring>

#include "bough/error.h"
#include "formats/onnx/external_data.h"
#include "util/bool_bytes.h"
#include "util/files.h"

namespace bough::onnx {

namespace {

void check_count(int64_t have, int64_t want, const char* field, const std::string& where) {
  if (have != want)
    fail(ErrorKind::InvalidModel, where,
         std::string("tensor ") + field + " holds " + std::to_string(have) +
             " values, its shape needs " + std::to_string(want));
}

// The repeated field that holds a tensor's values when it has no raw_data, and its size.
struct TypedField {
  const char* name;
  int64_t size;
};

TypedField typed_field(const onnxpb::TensorProto& p, ElemType type) {
  switch (type) {
    case ElemType::Float:
    case ElemType::Complex64:
      return {"float_data", p.float_data_size()};
    case ElemType::Double:
    case ElemType::Complex128:
      return {"double_data", p.double_data_size()};
    case ElemType::Int64:
      return {"int64_data", p.int64_data_size()};
    case ElemType::UInt32:
    case ElemType::UInt64:
      return {"uint64_data", p.uint64_data_size()};
    case ElemType::String:
      return {"string_data", p.string_data_size()};
    default:
      return {"int32_data", p.int32_data_size()};
  }
}

// How many values the typed field holds for `n` elements: two per complex element, one
// packed byte per value for the sub-byte types, one per element otherwise.
int64_t typed_values_needed(ElemType type, int64_t n) {
  if (type == ElemType::Complex64 || type == ElemType::Complex128) return 2 * n;
  if (is_sub_byte(type)) return static_cast<int64_t>(elem_storage_bytes(type, n));
  return n;
}

// Copies the first `count` values of a repeated proto field into the tensor's buffer,
// narrowing each to T.
template <typename T, typename Field>
void copy_field(const Field& field, Tensor* t, int64_t count) {
  T* out = t->data<T>();
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(field.Get(static_cast<int>(i)));
}

// Fills `t` from the typed field typed_field() named, whose size has been checked.
void fill_from_typed_fields(const onnxpb::TensorProto& p, Tensor* t) {
  const int64_t count = typed_values_needed(t->type(), t->numel());
  switch (t->type()) {
    case ElemType::Float:
    case ElemType::Complex64:
      return copy_field<float>(p.float_data(), t, count);
    case ElemType::Double:
    case ElemType::Complex128:
      return copy_field<double>(p.double_data(), t, count);
    case ElemType::Int64:
      return copy_field<int64_t>(p.int64_data(), t, count);
    case ElemType::UInt32:
      return copy_field<uint32_t>(p.uint64_data(), t, count);
    case ElemType::UInt64:
      return copy_field<uint64_t>(p.uint64_data(), t, count);
    case ElemType::Int32:
      return copy_field<int32_t>(p.int32_data(), t, count);
    case ElemType::Int16:
      return copy_field<int16_t>(p.int32_data(), t, count);
    case ElemType::UInt16:
    case ElemType::Float16:
    case ElemType::BFloat16:
      return copy_field<uint16_t>(p.int32_data(), t, count);
    case ElemType::Bool:
      for (int64_t i = 0; i < count; ++i)
        t->data<bool>()[i] = p.int32_data(static_cast<int>(i)) != 0;
      return;
    case ElemType::String:
      for (int64_t i = 0; i < count; ++i) t->strings()[i] = p.string_data(static_cast<int>(i));
      return;
    default:
      // int8/uint8, the float8 types: one element per int32; the sub-byte types: one packed
      // byte per int32.
      return copy_field<uint8_t>(p.int32_data(), t, count);
  }
}

}  // namespace

int64_t checked_numel(const google::protobuf::RepeatedField<int64_t>& dims,
                      const std::string& where) {
  constexpr int64_t kMaxElements = int64_t{1} << 48;
  for (int64_t d : dims)
    if (d < 0) fail(ErrorKind::InvalidModel, where, "tensor has a negative dimension");
  for (int64_t d : dims)
    if (d == 0) return 0;
  int64_t n = 1;
  for (int64_t d : dims) {
    if (n > kMaxElements / d)
      fail(ErrorKind::InvalidModel, where, "tensor shape has more than 2^48 elements");
    n *= d;
  }
  return n;
}

namespace {

// Frees the std::string a tensor adopted as its buffer.
void delete_string(void* s) { delete static_cast<std::string*>(s); }

// Clears the typed field fill_from_typed_fields read, so its memory goes as soon as its
// tensor is made.
void clear_typed_fields(onnxpb::TensorProto* p) {
  p->clear_float_data();
  p->clear_double_data();
  p->clear_int64_data();
  p->clear_uint64_data();
  p->clear_int32_data();
  p->clear_string_data();
}

// tensor_from_proto, and with `owner` (the same message as `p`) take_tensor_from_proto.
Tensor read_tensor(const onnxpb::TensorProto& p, onnxpb::TensorProto* owner,
                   const std::string& model_dir, const std::string& where) {
  if (!is_valid_elem_code(p.data_type()))
    fail(ErrorKind::InvalidModel, where,
         "tensor has unknown data_type " + std::to_string(p.data_type()));
  const auto type = static_cast<ElemType>(p.data_type());
  const int64_t n = checked_numel(p.dims(), where);
  const auto nbytes = static_cast<int64_t>(elem_storage_bytes(type, static_cast<size_t>(n)));
  Dims dims(std::span<const int64_t>(p.dims().data(), p.dims().size()));
  // The data is checked against the shape before the tensor is allocated: a small file
  // must not make the reader allocate whatever its shape claims.
  if (p.data_location() == onnxpb::TensorProto::EXTERNAL) {
    if (type == ElemType::String)
      fail(ErrorKind::InvalidModel, where, "string tensors cannot use external data");
    ExternalData external(p, model_dir, nbytes, where);
    Tensor t(type, std::move(dims));
    external.read_into(t.raw());
    if (type == ElemType::Bool) util::normalize_bools(t.raw(), t.nbytes());
    return t;
  }
  if (p.has_raw_data()) {
    if (type == ElemType::String)
      fail(ErrorKind::InvalidModel, where, "string tensors cannot use raw_data");
    check_count(static_cast<int64_t>(p.raw_data().size()), nbytes, "raw_data (bytes)", where);
    if (owner && nbytes) {
      // The message's string becomes the tensor's buffer (16-byte aligned, as malloc
      // gives; kernels do not rely on more).
      std::string* bytes = owner->release_raw_data();
      if (type == ElemType::Bool) util::normalize_bools(bytes->data(), bytes->size());
      return Tensor::wrap(type, std::move(dims), bytes->data(), delete_string, bytes);
    }
    Tensor t(type, std::move(dims));
    if (nbytes) std::memcpy(t.raw(), p.raw_data().data(), p.raw_data().size());
    if (type == ElemType::Bool) util::normalize_bools(t.raw(), t.nbytes());
    return t;
  }
  const TypedField field = typed_field(p, type);
  check_count(field.size, typed_values_needed(type, n), field.name, where);
  Tensor t(type, std::move(dims));
  fill_from_typed_fields(p, &t);
  if (owner) clear_typed_fields(owner);
  return t;
}

}  // namespace

Tensor tensor_from_proto(const onnxpb::TensorProto& p, const std::string& model_dir,
                         const std::string& where) {
  return read_tensor(p, nullptr, model_dir, where);
}

Tensor take_tensor_from_proto(onnxpb::TensorProto* p, const std::string& model_dir,
                              const std::string& where) {
  return read_tensor(*p, p, model_dir, where);
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

namespace {

// Whether `bytes` is a serialized MapProto: a key type maps may have, keys of that kind, and
// as many values as keys. The other kinds fail this: a SequenceProto's or OptionalProto's
// field 3 (read as keys) holds tensors, absent when the key type would be valid
// (elem_type 3, a sequence), and a TensorProto's field 3 is the rare `segment`.
bool is_map_proto(const std::string& bytes) {
  onnxpb::MapProto p;
  if (!p.ParseFromString(bytes) || !p.has_key_type() || !p.has_values()) return false;
  const int k = p.key_type();
  const bool string_keys = k == onnxpb::TensorProto::STRING;
  const bool integer_keys = (k >= onnxpb::TensorProto::UINT8 && k <= onnxpb::TensorProto::INT64) ||
                            k == onnxpb::TensorProto::UINT32 || k == onnxpb::TensorProto::UINT64;
  const int keys = string_keys ? p.string_keys_size() : p.keys_size();
  const auto& v = p.values();
  const int values = v.tensor_values_size() + v.sparse_tensor_values_size() +
                     v.sequence_values_size() + v.map_values_size() + v.optional_values_size();
  return (string_keys || integer_keys) && keys > 0 && keys == values &&
         (string_keys ? p.keys_size() : p.string_keys_size()) == 0;
}

// Whether `bytes` is a serialized SequenceProto of tensors. Read as a TensorProto it would
// pass for one of nonsense dims (its name read as packed dims); a TensorProto read as a
// SequenceProto has no tensor values (its field 3 is the rare `segment`), or fields a
// SequenceProto has not (raw_data, name).
bool is_sequence_of_tensors(const std::string& bytes) {
  onnxpb::SequenceProto p;
  return p.ParseFromString(bytes) && p.unknown_fields().empty() &&
         p.elem_type() == onnxpb::SequenceProto::TENSOR && p.tensor_values_size() > 0 &&
         p.sparse_tensor_values_size() + p.sequence_values_size() + p.map_values_size() +
                 p.optional_values_size() ==
             0;
}

}  // namespace

Value read_value_file(const std::string& path, ProtoKind hint) {
  std::string bytes = read_file(path);
  auto parse_error = [&] { fail(ErrorKind::BadInput, path, "not a valid protobuf file"); };
  if (is_map_proto(bytes))
    fail(ErrorKind::BadInput, path,
         "holds a MapProto (a map); maps are not supported: bough's values have no map type");
  switch (hint) {
    case ProtoKind::Tensor: {
      if (is_sequence_of_tensors(bytes))
        fail(ErrorKind::BadInput, path,
             "holds a SequenceProto (a sequence of tensors) where a TensorProto is needed: the "
             "input is a tensor");
      onnxpb::TensorProto p;
      if (!p.ParseFromString(bytes)) parse_error();
      return take_tensor_from_proto(&p, "", path);
    }
    // Fields the message does not have mean the file holds another message (a TensorProto
    // read as an OptionalProto would otherwise be an empty optional).
    case ProtoKind::Sequence: {
      onnxpb::SequenceProto p;
      if (!p.ParseFromString(bytes) || !p.unknown_fields().empty())
        fail(ErrorKind::BadInput, path, "holds no SequenceProto, which the input is");
      return value_from_sequence(p, path);
    }
    case ProtoKind::Optional: {
      onnxpb::OptionalProto p;
      if (!p.ParseFromString(bytes) || !p.unknown_fields().empty())
        fail(ErrorKind::BadInput, path, "holds no OptionalProto, which the input is");
      return value_from_optional(p, path);
    }
  }
  return {};
}

namespace {

void optional_to_proto(const Value& v, onnxpb::OptionalProto* p);

void sequence_to_proto(const Value& v, onnxpb::SequenceProto* p) {
  p->set_elem_type(onnxpb::SequenceProto::TENSOR);
  for (const Value& item : v.seq().items) {
    if (item.is_tensor()) {
      tensor_to_proto(item.tensor(), p->add_tensor_values());
    } else if (item.is_sequence()) {
      p->set_elem_type(onnxpb::SequenceProto::SEQUENCE);
      sequence_to_proto(item, p->add_sequence_values());
    } else {
      p->set_elem_type(onnxpb::SequenceProto::OPTIONAL);
      optional_to_proto(item, p->add_optional_values());
    }
  }
}

void optional_to_proto(const Value& v, onnxpb::OptionalProto* p) {
  if (v.is_tensor()) {
    p->set_elem_type(onnxpb::OptionalProto::TENSOR);
    tensor_to_proto(v.tensor(), p->mutable_tensor_value());
  } else if (v.is_sequence()) {
    p->set_elem_type(onnxpb::OptionalProto::SEQUENCE);
    sequence_to_proto(v, p->mutable_sequence_value());
  }
}

}  // namespace

std::string encode_value(const Value& value, ProtoKind kind) {
  switch (kind) {
    case ProtoKind::Tensor: {
      onnxpb::TensorProto p;
      tensor_to_proto(value.tensor(), &p);
      return p.SerializeAsString();
    }
    case ProtoKind::Sequence: {
      onnxpb::SequenceProto p;
      sequence_to_proto(value, &p);
      return p.SerializeAsString();
    }
    case ProtoKind::Optional: {
      onnxpb::OptionalProto p;
      optional_to_proto(value, &p);
      return p.SerializeAsString();
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
