// Stacks same-shaped tensors along a new leading axis, one at a time: the scan outputs of
// Loop and Scan. The buffer is preallocated when the count is known and grows
// geometrically otherwise; finishing returns a view of the filled part (no copy).
#pragma once

#include <cstdint>

#include "bough/tensor.h"

namespace bough::kernels {

class Stacker {
 public:
  // `expected` is the number of items when known in advance, or -1.
  explicit Stacker(int64_t expected = -1) : expected_(expected) {}

  // Throws Error(BadInput) when `item` differs in type or shape from the first item.
  void append(const Tensor& item);
  // The stacked tensor [count, ...item shape]. With no items, an empty tensor
  // [0, ...empty_item] of element type `empty_elem`.
  Tensor finish(ElemType empty_elem, const Dims& empty_item);
  int64_t count() const { return count_; }

 private:
  void grow(int64_t capacity);

  int64_t expected_;
  int64_t count_ = 0;
  int64_t capacity_ = 0;
  Dims item_shape_;
  Tensor buffer_;
};

}  // namespace bough::kernels
