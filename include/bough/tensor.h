/// @file
/// Tensors and runtime values.
///
/// A Tensor is an element type, a shape and a reference-counted buffer. Copying a Tensor
/// shares the buffer; views (e.g. Scan slices) share it too, at a byte offset.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bough/element_type.h"

namespace bough {

/// A small vector of dimensions, inline up to kInline (no heap for ordinary ranks).
class Dims {
 public:
  /// Dimensions held without a heap allocation.
  static constexpr size_t kInline = 6;
  /// A scalar's shape (no dimensions).
  Dims() = default;
  /// The given dimensions.
  Dims(std::initializer_list<int64_t> dims) { assign(dims.begin(), dims.size()); }
  /// The given dimensions.
  explicit Dims(std::span<const int64_t> dims) { assign(dims.data(), dims.size()); }
  /// Copies, moves and frees as a value.
  Dims(const Dims& other) { copy_from(other); }
  Dims& operator=(const Dims& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  Dims(Dims&& other) noexcept { take(other); }
  Dims& operator=(Dims&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~Dims() { release(); }

  /// The rank.
  size_t size() const { return size_; }
  /// True for a scalar's shape.
  bool empty() const { return size_ == 0; }
  /// The dimensions, contiguous.
  const int64_t* data() const { return heap_ ? heap_ : inline_; }
  int64_t* data() { return heap_ ? heap_ : inline_; }
  /// Dimension i.
  int64_t operator[](size_t i) const { return data()[i]; }
  int64_t& operator[](size_t i) { return data()[i]; }
  /// Iteration over the dimensions.
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  /// The last dimension (the shape must not be empty).
  int64_t back() const { return data()[size_ - 1]; }
  /// The dimensions as a span.
  operator std::span<const int64_t>() const { return {data(), size_}; }

  /// Keeps the first n dimensions, or appends `fill` up to n.
  void resize(size_t n, int64_t fill = 0);
  /// Appends a dimension.
  void push_back(int64_t d) {
    resize(size_ + 1);
    data()[size_ - 1] = d;
  }
  /// Inserts a dimension before position `pos`.
  void insert(size_t pos, int64_t d);
  /// Removes the dimension at `pos`.
  void erase(size_t pos);
  /// Same rank and dimensions.
  bool operator==(const Dims& other) const {
    if (size_ != other.size_) return false;
    const int64_t *a = data(), *b = other.data();
    for (size_t i = 0; i < size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  /// Not operator==.
  bool operator!=(const Dims& other) const { return !(*this == other); }
  /// The dimensions as a vector.
  std::vector<int64_t> vec() const { return {begin(), end()}; }

  /// Product of the dimensions (1 for a scalar).
  int64_t numel() const {
    int64_t n = 1;
    for (size_t i = 0; i < size_; ++i) n *= data()[i];
    return n;
  }

 private:
  void assign(const int64_t* d, size_t n) {
    if (n > capacity_) grow(n);
    int64_t* p = data();
    for (size_t i = 0; i < n; ++i) p[i] = d[i];
    size_ = static_cast<uint32_t>(n);
  }
  /// Between inline arrays, copy the whole array: a fixed-size copy beats a loop. A heap
  /// buffer on either side goes through assign (this one's stays in use). The heap paths
  /// are marked unlikely: GCC otherwise deems the inline copy cold and emits `rep movs`.
  void copy_from(const Dims& other) {
    if (other.heap_ || heap_) [[unlikely]]
      return assign(other.data(), other.size_);
    std::memcpy(inline_, other.inline_, sizeof(inline_));
    size_ = other.size_;
  }
  /// Drops a reference; the last one frees the buffer (or returns it to its owner).
  void release() {
    if (heap_) [[unlikely]] {
      delete[] heap_;
      heap_ = nullptr;
      capacity_ = kInline;
    }
  }
  void grow(size_t n);
  /// Moves other's dims into this (empty) Dims, stealing a heap buffer.
  void take(Dims& other) noexcept {
    size_ = other.size_;
    if (other.heap_) [[unlikely]] {
      heap_ = other.heap_;
      capacity_ = other.capacity_;
      other.heap_ = nullptr;
      other.capacity_ = kInline;
    } else {
      std::memcpy(inline_, other.inline_, sizeof(inline_));
    }
    other.size_ = 0;
  }
  int64_t inline_[kInline] = {};
  int64_t* heap_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;
};

/// The buffer behind tensors: a block of bytes, or an array of std::string for the string
/// element type. Reference counted; allocated through a small-size pool.
///
/// Counting is atomic unless the buffer is run-local: made by a Session::run on its own
/// thread and not yet handed out (Value::share). While that run's thread is outside a
/// parallel region, nobody else can reach such a buffer, so its count is kept with plain
/// loads and stores: If, Loop and Scan pass many tiny tensors around, and a locked
/// read-modify-write per copy was a tenth of their cost.
class Storage {
 public:
  /// A new buffer of `bytes` bytes (64-byte aligned), one reference.
  static Storage* allocate(size_t bytes);
  /// A new buffer of `count` empty strings, one reference.
  static Storage* allocate_strings(size_t count);
  /// A buffer the caller owns, used in place: bough never frees `data`; when the last
  /// reference goes it calls `on_release(context)` (if given) so the caller may.
  static Storage* wrap(void* data, size_t bytes, void (*on_release)(void*), void* context);
  /// Adds a reference.
  void retain() {
    if (counts_plainly())
      refs_.store(refs_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    else
      refs_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Drops a reference; the last one frees the buffer (or returns it to its owner).
  void release() {
    // A sole owner needs no atomic read-modify-write: nobody else can reach this buffer.
    const int32_t refs = refs_.load(std::memory_order_acquire);
    if (refs == 1) return destroy();
    if (counts_plainly()) return refs_.store(refs - 1, std::memory_order_relaxed);
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
  }
  /// True when this is the only reference.
  bool unique() const { return refs_.load(std::memory_order_acquire) == 1; }
  /// A buffer this small, once its value is dead, stays with the slot for reuse (see
  /// Value::release_after_use).
  bool worth_keeping() const { return size_ <= 1024 && unique(); }
  /// The bytes.
  uint8_t* bytes() { return data_; }
  /// The strings of a string buffer.
  std::string* strings() { return reinterpret_cast<std::string*>(data_); }
  /// Bytes, or the string count of a string buffer.
  size_t size() const { return size_; }
  /// From now on other threads may reach this buffer.
  void share() { run_local_ = false; }

  /// Set by Session::run on its thread, and cleared while that thread runs a parallel chunk.
  static inline thread_local bool plain_counts = false;

 private:
  Storage() = default;
  bool counts_plainly() const { return run_local_ && plain_counts; }
  static Storage* allocate_new(size_t bytes);
  void destroy();
  void destroy_slow();
  std::atomic<int32_t> refs_{1};
  bool run_local_ = false;
  bool wrapped_ = false;     ///< a caller's buffer (Storage::wrap), not a pool block
  int32_t size_class_ = -1;  ///< pool bucket, -1 for a plain allocation
  size_t block_bytes_ = 0;   ///< the whole allocation, header included
  size_t size_ = 0;          ///< bytes, or string count
  size_t string_count_ = 0;
  uint8_t* data_ = nullptr;
  void (*on_release_)(void*) = nullptr;  ///< for a wrapped buffer
  void* release_context_ = nullptr;
};

/// An element type, a shape and a reference-counted buffer (see the top of this file).
class Tensor {
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
      : type_(other.type_), shape_(other.shape_), storage_(other.storage_), offset_(other.offset_) {
    if (storage_) storage_->retain();
  }
  /// Takes other's buffer; other becomes undefined.
  Tensor(Tensor&& other) noexcept
      : type_(other.type_),
        shape_(std::move(other.shape_)),
        storage_(other.storage_),
        offset_(other.offset_) {
    other.storage_ = nullptr;
  }
  /// Shares other's buffer, releasing its own.
  Tensor& operator=(const Tensor& other) {
    if (other.storage_) other.storage_->retain();
    if (storage_) storage_->release();
    type_ = other.type_;
    shape_ = other.shape_;
    storage_ = other.storage_;
    offset_ = other.offset_;
    return *this;
  }
  /// Takes other's buffer, releasing its own.
  Tensor& operator=(Tensor&& other) noexcept {
    if (this != &other) {
      if (storage_) storage_->release();
      type_ = other.type_;
      shape_ = std::move(other.shape_);
      storage_ = other.storage_;
      offset_ = other.offset_;
      other.storage_ = nullptr;
    }
    return *this;
  }
  /// Releases the buffer.
  ~Tensor() {
    if (storage_) storage_->release();
  }
  /// Exchanges type, shape and buffer with other.
  void swap(Tensor& other) noexcept;
  /// Becomes an uninitialized tensor of `type` and `shape`, as Tensor(type, shape) would,
  /// but keeps its buffer when nothing else refers to it and the type and shape are the
  /// same: a kernel that runs again and again (in a Loop body, say) then allocates nothing.
  /// Strings keep their old values.
  void reinit(ElemType type, const Dims& shape) {
    const bool fits = storage_ && type == type_ && offset_ == 0 && shape == shape_;
    if (!fits || !storage_->unique()) [[unlikely]]
      remake(type, shape);
  }
  /// Drops the buffer (the tensor becomes undefined).
  void reset() {
    if (storage_) storage_->release();
    storage_ = nullptr;
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
  void* raw() { return storage_->bytes() + offset_; }
  const void* raw() const { return storage_->bytes() + offset_; }
  /// Elements as T; for the string type, T is std::string (views keep their offset).
  template <typename T>
  T* data() {
    if constexpr (std::is_same_v<T, std::string>)
      return strings();
    else
      return reinterpret_cast<T*>(raw());
  }
  template <typename T>
  const T* data() const {
    if constexpr (std::is_same_v<T, std::string>)
      return strings();
    else
      return reinterpret_cast<const T*>(raw());
  }
  /// The elements of a string tensor.
  std::string* strings() { return storage_->strings() + offset_; }
  const std::string* strings() const { return storage_->strings() + offset_; }

  /// Lets other threads reach the buffer (see Storage).
  void share() const {
    if (storage_) storage_->share();
  }
  /// True when no other Tensor shares the buffer (so it may be written in place).
  bool unique() const { return storage_ && storage_->unique(); }
  /// See Storage::worth_keeping.
  bool worth_keeping() const { return storage_ && storage_->worth_keeping(); }
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
  void allocate();                                ///< the buffer for type_ and shape_
  void remake(ElemType type, const Dims& shape);  ///< reinit with a new buffer
  ElemType type_ = ElemType::Undefined;
  Dims shape_;
  Storage* storage_ = nullptr;
  size_t offset_ = 0;  ///< in bytes, or in strings for the string type
};

template <typename T>
Tensor Tensor::from_vector(ElemType type, Dims shape, const std::vector<T>& values) {
  Tensor t(type, std::move(shape));
  for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < t.numel(); ++i)
    t.data<T>()[i] = values[i];
  return t;
}

struct SequenceValue;

/// A runtime value: a tensor, a sequence, or the empty optional ("none"). An optional
/// holding an element is represented by the element itself.
class Value {
 public:
  /// A value's kind.
  enum class Kind : uint8_t { None, Tensor, Sequence };
  /// The empty optional.
  Value() = default;
  /// A tensor value.
  Value(Tensor t) : kind_(Kind::Tensor), tensor_(std::move(t)) {}  // NOLINT: implicit on purpose
  /// Copies share the tensor's buffer or the sequence.
  Value(const Value&) = default;
  Value& operator=(const Value&) = default;
  /// A moved-from Value is the empty optional.
  Value(Value&& o) noexcept
      : kind_(o.kind_), tensor_(std::move(o.tensor_)), seq_(std::move(o.seq_)) {
    o.kind_ = Kind::None;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      kind_ = o.kind_;
      tensor_ = std::move(o.tensor_);
      seq_ = std::move(o.seq_);
      o.kind_ = Kind::None;
    }
    return *this;
  }
  /// Holds `t` from now on (cheaper than building a Value and moving it in).
  Value& operator=(Tensor&& t) noexcept {
    if (kind_ == Kind::Sequence) seq_.reset();
    kind_ = Kind::Tensor;
    tensor_ = std::move(t);
    return *this;
  }
  /// The empty optional.
  static Value none() { return Value(); }
  /// Makes this value a tensor, keeping the tensor it holds (if any), for a kernel to
  /// overwrite in place (Tensor::reinit).
  Tensor& as_tensor() {
    if (kind_ != Kind::Tensor) [[unlikely]] {
      seq_.reset();
      kind_ = Kind::Tensor;
    }
    return tensor_;
  }
  /// After the value's last use in a run: drops what it holds, except a small tensor buffer
  /// nobody else refers to. That one stays for the next run of the same step to overwrite
  /// (Tensor::reinit), which saves an allocation per step in Loop and Scan bodies.
  void release_after_use() {
    if (kind_ != Kind::Tensor || !tensor_.worth_keeping()) reset();
  }
  /// Makes this the empty optional, releasing what it held.
  void reset() {
    tensor_.reset();
    if (kind_ == Kind::Sequence) seq_.reset();
    kind_ = Kind::None;
  }
  /// A sequence of tensors of element type `elem` (kept for an empty sequence).
  static Value sequence(ElemType elem, std::vector<Value> items);
  /// Lets other threads reach the buffers of this value, its items included (see Storage).
  void share() const;

  /// Which kind of value this is.
  Kind kind() const { return kind_; }
  /// True for a tensor.
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  /// True for a sequence.
  bool is_sequence() const { return kind_ == Kind::Sequence; }
  /// True for the empty optional.
  bool is_none() const { return kind_ == Kind::None; }
  /// The tensor (of a tensor value).
  const Tensor& tensor() const { return tensor_; }
  /// The tensor (of a tensor value), to change.
  Tensor& tensor() { return tensor_; }
  /// The sequence (of a sequence value).
  const SequenceValue& seq() const { return *seq_; }

 private:
  Kind kind_ = Kind::None;
  Tensor tensor_;
  std::shared_ptr<const SequenceValue> seq_;
};

/// The items of a sequence value.
struct SequenceValue {
  ElemType elem = ElemType::Undefined;  ///< element type of the tensors (kept for empty sequences)
  std::vector<Value> items;
};

/// "tensor(float)[2,3]", "seq(tensor(int64))[3 items]", "optional(none)".
std::string describe(const Value& v);
/// "[2,3]".
std::string shape_string(std::span<const int64_t> dims);

}  // namespace bough
