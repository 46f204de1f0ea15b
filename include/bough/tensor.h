/// @file
/// Tensors.
///
/// A Tensor is an element type, a shape and a reference-counted buffer. Copying a Tensor
/// shares the buffer; views (e.g. Scan slices) share it too, at a byte offset.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bough/dims.h"
#include "bough/element_type.h"
#include "bough/export.h"

namespace bough {

class Storage;  // the buffer pool's block (internal)
namespace ir {
struct TensorAccess;  // the buffer pool's way in (internal)
}

/// An element type, a shape and a reference-counted buffer (see the top of this file).
class BOUGH_API Tensor {
 public:
  /// An undefined tensor (no buffer).
  Tensor() = default;
  /// An uninitialized tensor (strings are empty, other bytes undefined).
  Tensor(ElemType type, const Dims& shape) : type_(type), shape_(shape) { allocate(); }
  Tensor(ElemType type, Dims&& shape) : type_(type), shape_(std::move(shape)) { allocate(); }
  /// A zero-filled tensor.
  static Tensor zeros(ElemType type, Dims shape);
  template <typename T>
  static Tensor from_vector(ElemType type, Dims shape, const std::vector<T>& values);
  /// A bool scalar.
  static Tensor scalar_bool(bool v);
  /// An int64 scalar.
  static Tensor scalar_i64(int64_t v);
  /// A tensor over a caller's buffer, without a copy: `data` holds the elements of `type`
  /// (not String) and `shape` densely, in row-major order. bough reads and writes it in
  /// place and never frees it; when the last Tensor sharing it goes, `on_release(context)`
  /// is called (if given), on whichever thread drops that reference. The buffer must stay
  /// valid until then. Session::run never writes its inputs.
  static Tensor wrap(ElemType type, Dims shape, void* data, void (*on_release)(void*) = nullptr,
                     void* context = nullptr);

  /// Shares other's buffer.
  Tensor(const Tensor& other)
      : type_(other.type_), shape_(other.shape_), storage_(other.storage_), data_(other.data_) {
    if (storage_) retain(storage_);
  }
  /// Takes other's buffer; other becomes undefined.
  Tensor(Tensor&& other) noexcept
      : type_(other.type_),
        shape_(std::move(other.shape_)),
        storage_(other.storage_),
        data_(other.data_) {
    other.storage_ = nullptr;
    other.data_ = nullptr;
  }
  /// Shares other's buffer, releasing its own.
  Tensor& operator=(const Tensor& other) {
    if (other.storage_) retain(other.storage_);
    if (storage_) release(storage_);
    type_ = other.type_;
    shape_ = other.shape_;
    storage_ = other.storage_;
    data_ = other.data_;
    return *this;
  }
  /// Takes other's buffer, releasing its own.
  Tensor& operator=(Tensor&& other) noexcept {
    if (this != &other) {
      if (storage_) release(storage_);
      type_ = other.type_;
      shape_ = std::move(other.shape_);
      storage_ = other.storage_;
      data_ = other.data_;
      other.storage_ = nullptr;
      other.data_ = nullptr;
    }
    return *this;
  }
  /// Releases the buffer.
  ~Tensor() {
    if (storage_) release(storage_);
  }
  /// Exchanges type, shape and buffer with other.
  void swap(Tensor& other) noexcept;
  /// Drops the buffer (the tensor becomes undefined).
  void reset() {
    if (storage_) release(storage_);
    storage_ = nullptr;
    data_ = nullptr;
  }

  /// False for a default-constructed or reset tensor.
  bool defined() const { return storage_ != nullptr; }
  /// The element type.
  ElemType type() const { return type_; }
  /// The shape.
  const Dims& shape() const { return shape_; }
  /// The number of dimensions.
  size_t rank() const { return shape_.size(); }
  /// Dimension i.
  int64_t dim(size_t i) const { return shape_[i]; }
  /// The number of elements (1 for a scalar).
  int64_t numel() const { return shape_.numel(); }
  /// The bytes the elements take (packed for sub-byte types; not for strings).
  size_t nbytes() const { return elem_storage_bytes(type_, static_cast<size_t>(numel())); }

  /// The first element's bytes.
  void* raw() { return data_; }
  const void* raw() const { return data_; }
  /// Elements as T; for the string type, T is std::string (views keep their offset).
  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_);
  }
  /// The elements of a string tensor.
  std::string* strings() { return data<std::string>(); }
  const std::string* strings() const { return data<std::string>(); }

  /// True when no other Tensor shares the buffer (so it may be written in place).
  bool unique() const;
  /// Same buffer, new shape of the same element count (Reshape, Squeeze, ...).
  Tensor reshaped(Dims shape) const;
  /// A view of `count` elements starting at element `first` (byte-aligned types only).
  Tensor view(int64_t first, Dims shape) const;
  /// A deep copy.
  Tensor clone() const;

  /// Element i converted to double / int64 (any numeric or bool type; for indices and tests).
  double get_double(int64_t i) const;
  int64_t get_int(int64_t i) const;

 private:
  friend struct ir::TensorAccess;
  static void retain(Storage* storage);
  static void release(Storage* storage);
  void allocate();  ///< the buffer for type_ and shape_
  ElemType type_ = ElemType::Undefined;
  Dims shape_;
  Storage* storage_ = nullptr;
  uint8_t* data_ = nullptr;  ///< the first element, in the buffer (views start later)
};

template <typename T>
Tensor Tensor::from_vector(ElemType type, Dims shape, const std::vector<T>& values) {
  Tensor t(type, std::move(shape));
  for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < t.numel(); ++i)
    t.data<T>()[i] = values[i];
  return t;
}

/// "[2,3]".
BOUGH_API std::string shape_string(std::span<const int64_t> dims);

}  // namespace bough
