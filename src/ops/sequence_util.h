// Helpers shared by the sequence operators: reading a sequence input and a position, checking
// element types, and copying runs of elements between tensors (ConcatFromSequence and
// SplitToSequence).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "bough/error.h"
#include "bough/tensor.h"
#include "exec/kernel.h"

namespace bough::ops {

// Input i as a sequence; a clear error when it is something else.
inline const SequenceValue& sequence_input(const exec::KernelIO& io, size_t i) {
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

// Copies `rows` runs of `run` elements: run r reads `src` from element src_first + r *
// src_stride and writes `dst` from element dst_first + r * dst_stride.
inline void copy_runs(const Tensor& src, int64_t src_first, int64_t src_stride, Tensor& dst,
                      int64_t dst_first, int64_t dst_stride, int64_t rows, int64_t run) {
  if (run == 0 || rows == 0) return;
  if (src.type() == ElemType::String) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i = 0; i < run; ++i)
        dst.strings()[dst_first + r * dst_stride + i] =
            src.strings()[src_first + r * src_stride + i];
    return;
  }
  if (is_sub_byte(src.type()))
    fail(ErrorKind::Unsupported, "",
         "sequences of sub-byte element type " + std::string(elem_name(src.type())));
  const auto width = static_cast<size_t>(elem_bits(src.type()) / 8);
  const auto* from = static_cast<const uint8_t*>(src.raw());
  auto* to = static_cast<uint8_t*>(dst.raw());
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(to + static_cast<size_t>(dst_first + r * dst_stride) * width,
                from + static_cast<size_t>(src_first + r * src_stride) * width,
                static_cast<size_t>(run) * width);
}

}  // namespace bough::ops
