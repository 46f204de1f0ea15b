/// @file
/// Runtime values: a tensor, a sequence of them, or the empty optional.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bough/element_type.h"
#include "bough/export.h"
#include "bough/tensor.h"

namespace bough {

struct SequenceValue;

/// A runtime value: a tensor, a sequence, or the empty optional ("none"). An optional
/// holding an element is represented by the element itself.
class BOUGH_API Value {
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
  /// overwrite in place.
  Tensor& as_tensor() {
    if (kind_ != Kind::Tensor) [[unlikely]] {
      seq_.reset();
      kind_ = Kind::Tensor;
    }
    return tensor_;
  }
  /// Makes this the empty optional, releasing what it held.
  void reset() {
    tensor_.reset();
    if (kind_ == Kind::Sequence) seq_.reset();
    kind_ = Kind::None;
  }
  /// A sequence of tensors of element type `elem` (kept for an empty sequence).
  static Value sequence(ElemType elem, std::vector<Value> items);

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
BOUGH_API std::string describe(const Value& v);

}  // namespace bough
