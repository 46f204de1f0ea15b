#include "kernels/stacker.h"

#include <algorithm>
#include <cstring>

#include "bough/error.h"

namespace bough::kernels {

namespace {
// Preallocate a known count only up to this size; beyond it, grow as items arrive (a Loop
// with a huge trip count and an early exit must not reserve memory for every iteration).
constexpr size_t kMaxPreallocBytes = size_t{64} << 20;
}  // namespace

void Stacker::grow(int64_t capacity) {
  Dims shape = item_shape_;
  shape.insert(0, capacity);
  Tensor bigger(buffer_.defined() ? buffer_.type() : ElemType::Undefined, shape);
  int64_t item = item_shape_.numel();
  if (buffer_.type() == ElemType::String) {
    for (int64_t i = 0; i < count_ * item; ++i)
      bigger.strings()[i] = std::move(buffer_.strings()[i]);
  } else if (count_ > 0) {
    std::memcpy(bigger.raw(), buffer_.raw(),
                elem_storage_bytes(buffer_.type(), static_cast<size_t>(count_ * item)));
  }
  buffer_ = std::move(bigger);
  capacity_ = capacity;
}

void Stacker::append(const Tensor& item) {
  if (count_ == 0) {
    item_shape_ = item.shape();
    size_t item_bytes = std::max<size_t>(1, item.nbytes());
    int64_t first = 4;
    if (expected_ > 0 && static_cast<size_t>(expected_) <= kMaxPreallocBytes / item_bytes)
      first = expected_;
    Dims shape = item_shape_;
    shape.insert(0, first);
    buffer_ = Tensor(item.type(), shape);
    capacity_ = first;
  } else if (item.type() != buffer_.type() || item.shape() != item_shape_) {
    fail(ErrorKind::BadInput, "",
         "scan output changes from " + std::string(elem_name(buffer_.type())) +
             shape_string(item_shape_) + " to " + std::string(elem_name(item.type())) +
             shape_string(item.shape()) + " at iteration " + std::to_string(count_));
  }
  if (count_ == capacity_) grow(capacity_ * 2);
  int64_t n = item.numel();
  if (item.type() == ElemType::String) {
    std::string* dst = buffer_.strings() + count_ * n;
    for (int64_t i = 0; i < n; ++i) dst[i] = item.strings()[i];
  } else if (is_sub_byte(item.type())) {
    fail(ErrorKind::Unsupported, "", "scan outputs of sub-byte element types");
  } else {
    std::memcpy(buffer_.data<uint8_t>() + static_cast<size_t>(count_) * item.nbytes(), item.raw(),
                item.nbytes());
  }
  ++count_;
}

Tensor Stacker::finish(ElemType empty_elem, const Dims& empty_item) {
  if (count_ == 0) {
    Dims shape = empty_item;
    shape.insert(0, 0);
    return Tensor(empty_elem, shape);
  }
  Dims shape = item_shape_;
  shape.insert(0, count_);
  Tensor out = count_ == capacity_ ? buffer_.reshaped(shape) : buffer_.view(0, shape);
  buffer_ = Tensor();
  count_ = capacity_ = 0;
  return out;
}

}  // namespace bough::kernels
