// Tensor contents as the protocol carries them: JSON arrays (row-major, flat or nested as the
// shape), or raw bytes (Triton's binary tensor data: little-endian, row-major, no padding;
// BOOL one byte; BYTES each element a 4-byte little-endian length and its bytes).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>

#include "bough/tensor.h"

namespace bough::serve {

// The element count of `shape`; ProtocolError(400) starting with `what` ("input 'x'") for a
// negative dimension or
// a count past 2^40 elements (no request body holds more).
int64_t element_count(std::span<const int64_t> shape, const std::string& what);

// A tensor of `type` and `shape` from a JSON array, read in row-major order through any
// nesting. Integers must be whole and in range; floats take any number and the strings "NaN",
// "Infinity" and "-Infinity"; BOOL takes true and false; BYTES takes strings. ProtocolError
// (400) naming input `what` for a value of the wrong kind or a count that is not the shape's.
Tensor tensor_from_json(const nlohmann::json& data, ElemType type, const Dims& shape,
                        const std::string& what);
// A tensor of `type` and `shape` from its raw bytes; ProtocolError(400) when their size does
// not fit the shape.
Tensor tensor_from_binary(std::string_view bytes, ElemType type, const Dims& shape,
                          const std::string& what);

// Appends the tensor's elements as a flat JSON array. Floats are written in the fewest digits
// that read back to the same value; NaN and infinities as NaN, Infinity and -Infinity (not
// JSON, but what Python's json module and most JSON readers of tensors accept). Strings that
// are not UTF-8 get U+FFFD for their bad bytes.
void append_json_data(std::string& out, const Tensor& tensor);
// Appends the tensor's raw bytes; returns how many.
size_t append_binary_data(std::string& out, const Tensor& tensor);

}  // namespace bough::serve
