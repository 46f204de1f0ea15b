/// @file
/// Dims: a tensor's shape.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

#include "bough/export.h"

namespace bough {

/// A small vector of dimensions, inline up to kInline (no heap for ordinary ranks).
class BOUGH_API Dims {
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

}  // namespace bough
