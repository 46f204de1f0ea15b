// OpenVINO's layout of a string Const in the .bin (src/core/src/runtime/string_aligned_buffer.cpp,
// aux_unpack_string_tensor and aux_get_header, which the IR reader and serializer use):
// little-endian int32 values, the string count n, then (for n > 0) n + 1 offsets into the
// characters that follow the header (the first 0, then where each string ends), then the
// characters of all strings back to back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bough::openvino {

// The n strings held in `packed` into `out[0..n)`. Throws bough::Error (at `where`) when the
// count is not `n`, or an offset is negative, decreasing or past the bytes given, as
// OpenVINO's reader refuses them.
void unpack_ov_strings(std::string_view packed, int64_t n, std::string* out,
                       const std::string& where);
// The packed form of `strings[0..n)`; throws bough::Error when the characters exceed the
// int32 offsets.
std::string pack_ov_strings(const std::string* strings, int64_t n, const std::string& where);

}  // namespace bough::openvino
