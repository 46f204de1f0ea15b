#include <cstring>

#include "bough/error.h"
#include "bough/value.h"
#include "ir/float_formats.h"
#include "ir/storage.h"
#include "util/bool_bytes.h"
#include "util/from_double.h"

namespace bough {

// ---- Dims -------------------------------------------------------------------------------

void Dims::grow(size_t n) {
  auto* grown = new int64_t[n];
  std::memcpy(grown, data(), size_ * sizeof(int64_t));
  delete[] heap_;
  heap_ = grown;
  capacity_ = static_cast<uint32_t>(n);
}

void Dims::resize(size_t n, int64_t fill) {
  if (n > capacity_) grow(n);
  for (size_t i = size_; i < n; ++i) data()[i] = fill;
  size_ = static_cast<uint32_t>(n);
}

void Dims::insert(size_t pos, int64_t d) {
  resize(size_ + 1);
  int64_t* p = data();
  for (size_t i = size_ - 1; i > pos; --i) p[i] = p[i - 1];
  p[pos] = d;
}

void Dims::erase(size_t pos) {
  int64_t* p = data();
  for (size_t i = pos; i + 1 < size_; ++i) p[i] = p[i + 1];
  --size_;
}

// ---- Tensor -----------------------------------------------------------------------------

namespace {

[[noreturn, gnu::cold]] void bad_shape(const Dims& shape) {
  for (int64_t d : shape)
    if (d < 0) fail(ErrorKind::BadInput, "", "negative dimension in shape " + shape_string(shape));
  fail(ErrorKind::BadInput, "", "tensor of shape " + shape_string(shape) + " is too large");
}

// The element count of `shape`; an error for negative dims and for counts that overflow or
// cannot be allocated.
inline size_t checked_numel(const Dims& shape) {
  constexpr int64_t kMaxElements = int64_t{1} << 40;
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) [[unlikely]]
      bad_shape(shape);
  if (n > kMaxElements) [[unlikely]]
    bad_shape(shape);
  return static_cast<size_t>(n);
}

}  // namespace

void Tensor::allocate() {
  const size_t n = checked_numel(shape_);
  storage_ = type_ == ElemType::String ? Storage::allocate_strings(n)
                                       : Storage::allocate(elem_storage_bytes(type_, n));
  data_ = storage_->bytes();
  // A sub-byte tensor's last byte may hold padding bits after its last field: zero, so that
  // kernels writing field by field leave no leftovers in saved files.
  if (is_sub_byte(type_) && nbytes() > 0) static_cast<uint8_t*>(raw())[nbytes() - 1] = 0;
}

Tensor Tensor::zeros(ElemType type, Dims shape) {
  Tensor t(type, std::move(shape));
  if (type != ElemType::String) std::memset(t.raw(), 0, t.nbytes());
  return t;
}

Tensor Tensor::scalar_bool(bool v) {
  Tensor t(ElemType::Bool, {});
  *t.data<bool>() = v;
  return t;
}

Tensor Tensor::scalar_i64(int64_t v) {
  Tensor t(ElemType::Int64, {});
  *t.data<int64_t>() = v;
  return t;
}

Tensor Tensor::wrap(ElemType type, Dims shape, void* data, void (*on_release)(void*),
                    void* context) {
  if (type == ElemType::String || elem_bits(type) == 0)
    fail(ErrorKind::BadInput, "",
         "a tensor of " + std::string(elem_name(type)) + " cannot wrap a caller's buffer");
  Tensor t;
  t.type_ = type;
  t.shape_ = std::move(shape);
  const size_t bytes = elem_storage_bytes(type, checked_numel(t.shape_));
  if (type == ElemType::Bool && util::has_non_boolean_bytes(data, bytes)) {
    // A bool byte other than 0 and 1 would reach the kernels as is: such a buffer is read
    // into one of bough's own, as 0 and 1, and the caller's is let go at once (it may be
    // read-only, and run never writes its inputs).
    t.allocate();
    std::memcpy(t.raw(), data, bytes);
    util::normalize_bools(t.raw(), bytes);
    if (on_release) on_release(context);
    return t;
  }
  t.storage_ = Storage::wrap(data, bytes, on_release, context);
  t.data_ = t.storage_->bytes();
  return t;
}

void Tensor::swap(Tensor& other) noexcept {
  std::swap(type_, other.type_);
  std::swap(shape_, other.shape_);
  std::swap(storage_, other.storage_);
  std::swap(data_, other.data_);
}

Tensor Tensor::reshaped(Dims shape) const {
  if (shape.numel() != numel())
    fail(ErrorKind::BadInput, "",
         "cannot view " + shape_string(shape_) + " as " + shape_string(shape));
  Tensor t(*this);
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::view(int64_t first, Dims shape) const {
  Tensor t(*this);
  t.shape_ = std::move(shape);
  t.data_ += type_ == ElemType::String ? static_cast<size_t>(first) * sizeof(std::string)
                                       : static_cast<size_t>(first) * (elem_bits(type_) / 8);
  return t;
}

Tensor Tensor::clone() const {
  Tensor t(type_, shape_);
  if (type_ == ElemType::String) {
    for (int64_t i = 0; i < numel(); ++i) t.strings()[i] = strings()[i];
  } else if (nbytes()) {
    std::memcpy(t.raw(), raw(), nbytes());
  }
  return t;
}

double Tensor::get_double(int64_t i) const {
  switch (type_) {
    case ElemType::Float:
      return data<float>()[i];
    case ElemType::Double:
      return data<double>()[i];
    case ElemType::Float16:
      return half_to_float(data<uint16_t>()[i]);
    case ElemType::BFloat16:
      return bfloat16_to_float(data<uint16_t>()[i]);
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      return float8_to_float(type_, data<uint8_t>()[i]);
    case ElemType::Float8E8M0:
      return e8m0_to_float(data<uint8_t>()[i]);
    case ElemType::Float4E2M1:
      return float4e2m1_to_float(get_packed(data<uint8_t>(), i, 4));
    case ElemType::UInt64:
      return static_cast<double>(data<uint64_t>()[i]);
    default:
      return static_cast<double>(get_int(i));
  }
}

int64_t Tensor::get_int(int64_t i) const {
  switch (type_) {
    case ElemType::Bool:
      return data<bool>()[i];
    case ElemType::UInt8:
      return data<uint8_t>()[i];
    case ElemType::Int8:
      return data<int8_t>()[i];
    case ElemType::UInt16:
      return data<uint16_t>()[i];
    case ElemType::Int16:
      return data<int16_t>()[i];
    case ElemType::Int32:
      return data<int32_t>()[i];
    case ElemType::Int64:
      return data<int64_t>()[i];
    case ElemType::UInt32:
      return data<uint32_t>()[i];
    case ElemType::UInt64:
      return static_cast<int64_t>(data<uint64_t>()[i]);
    case ElemType::UInt4:
      return get_packed(data<uint8_t>(), i, 4);
    case ElemType::Int4:
      return sign_extend(get_packed(data<uint8_t>(), i, 4), 4);
    case ElemType::UInt2:
      return get_packed(data<uint8_t>(), i, 2);
    case ElemType::Int2:
      return sign_extend(get_packed(data<uint8_t>(), i, 2), 2);
    default:
      // Truncated and saturated: a float tensor read as sizes or indices may hold anything.
      if (is_float_type(type_)) return util::from_double<int64_t>(get_double(i));
      fail(ErrorKind::Unsupported, "",
           std::string("no integer value for type ") + std::string(elem_name(type_)));
  }
}

// ---- Value ------------------------------------------------------------------------------

Value Value::sequence(ElemType elem, std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Sequence;
  v.seq_ = std::make_shared<const SequenceValue>(SequenceValue{elem, std::move(items)});
  return v;
}

std::string shape_string(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::None:
      return "optional(none)";
    case Value::Kind::Tensor:
      return "tensor(" + std::string(elem_name(v.tensor().type())) + ")" +
             shape_string(v.tensor().shape());
    case Value::Kind::Sequence:
      return "seq(tensor(" + std::string(elem_name(v.seq().elem)) + "))[" +
             std::to_string(v.seq().items.size()) + " items]";
  }
  return "?";
}

}  // namespace bough
