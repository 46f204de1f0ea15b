// The encoded bytes as a library reads them through its callbacks (libpng, libtiff,
// OpenJPEG): the place reached, and the first error the library reported, kept for the Error
// thrown once the library has returned.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace bough::kernels::image {

struct MemorySource {
  std::string_view bytes;
  uint64_t at = 0;
  std::string error;

  // Copies up to `n` bytes from the place reached into `out`; returns how many it copied.
  uint64_t read(void* out, uint64_t n) {
    const uint64_t left = at < bytes.size() ? bytes.size() - at : 0;
    const uint64_t take = std::min(left, n);
    if (take > 0) std::memcpy(out, bytes.data() + at, take);
    at += take;
    return take;
  }
  // Keeps the first message reported, without trailing newlines.
  void keep_error(std::string message) {
    if (!error.empty()) return;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    error = std::move(message);
  }
};

}  // namespace bough::kernels::image
