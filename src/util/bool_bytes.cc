#include "util/bool_bytes.h"

#include <cstdint>

namespace bough::util {

bool has_non_boolean_bytes(const void* data, size_t n) {
  const auto* b = static_cast<const uint8_t*>(data);
  uint8_t high = 0;  // the bits above the lowest of every byte, or-ed: a loop that vectorizes
  for (size_t i = 0; i < n; ++i) high |= b[i] & 0xfe;
  return high != 0;
}

void normalize_bools(void* data, size_t n) {
  auto* b = static_cast<uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) b[i] = b[i] != 0;
}

}  // namespace bough::util
