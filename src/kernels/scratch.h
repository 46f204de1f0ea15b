// Scratch memory for a kernel's temporaries (column matrices, output tiles), taken from the
// tensor allocator, which caches released blocks between runs: a model run repeatedly then
// touches no fresh pages. A std::vector past malloc's mmap threshold (128 KiB until malloc
// raises it) is mapped anew and faulted in on every call: small_cnn's Conv columns cost 240
// page faults and twice the time per run that way. Not initialized.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bough/tensor.h"

namespace bough::kernels {

template <typename T>
class Scratch {
 public:
  // Room for at least `n` elements, valid until the next call or the Scratch's end.
  T* get(size_t n) {
    if (n > capacity_) {
      buffer_ = Tensor(ElemType::UInt8, {static_cast<int64_t>(n * sizeof(T))});
      capacity_ = n;
    }
    return reinterpret_cast<T*>(buffer_.data<uint8_t>());
  }

 private:
  Tensor buffer_;
  size_t capacity_ = 0;
};

// Room for at least `n` elements in a thread's kept vector, which only grows: layers of
// other sizes taking turns would otherwise shrink it and then clear the regrown part on
// every run. The elements are whatever an earlier call left.
template <typename T>
T* grow_only(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

}  // namespace bough::kernels
