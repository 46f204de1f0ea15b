// Helpers shared by the sequence operators: reading a sequence input and a position, and
// checking element types.
#pragma once

#include <cstdint>
#include <string>

#include "bough/error.h"
#include "bough/value.h"
#include "ops/kernel.h"

namespace bough::ops {

// Input i as a sequence; a clear error when it is something else.
inline const SequenceValue& sequence_input(const KernelIO& io, size_t i) {
  const Value& v = io.value(i);
  if (!v.is_sequence())
    fail(ErrorKind::BadInput, "",
         "input " + std::to_string(i) + " must be a sequence, got " + describe(v));
  return v.seq();
}

// Reads a position: one int32 or int64 element (a scalar per the spec; a one-element 1-D
// tensor is accepted too). Negative values count from the back. The result lies in
// [0, count), or in [0, count] when `end_ok` (inserting after the last tensor).
inline size_t read_position(const Value& v, size_t count, bool end_ok) {
  if (!v.is_tensor() || v.tensor().numel() != 1 ||
      (v.tensor().type() != ElemType::Int32 && v.tensor().type() != ElemType::Int64))
    fail(ErrorKind::BadInput, "",
         "the position must be one int32 or int64 element, got " + describe(v));
  const int64_t p = v.tensor().get_int(0);
  const auto n = static_cast<int64_t>(count);
  const int64_t hi = end_ok ? n : n - 1;
  if (p < -n || p > hi)
    fail(ErrorKind::BadInput, "",
         "position " + std::to_string(p) + " is out of range [" + std::to_string(-n) + ", " +
             std::to_string(hi) + "] for a sequence of " + std::to_string(n) + " tensors");
  return static_cast<size_t>(p < 0 ? p + n : p);
}

// A sequence holds tensors of one element type (Undefined: not known yet).
inline void check_elem_type(ElemType expected, const Tensor& t, const std::string& what) {
  if (expected != ElemType::Undefined && t.type() != expected)
    fail(ErrorKind::BadInput, "",
         what + " has element type " + std::string(elem_name(t.type())) +
             ", but the sequence holds " + std::string(elem_name(expected)));
}

}  // namespace bough::ops
