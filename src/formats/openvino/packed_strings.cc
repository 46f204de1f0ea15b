#include "formats/openvino/packed_strings.h"

#include <cstring>
#include <limits>

#include "bough/error.h"

namespace bough::openvino {

namespace {

int32_t int32_at(std::string_view bytes, size_t k) {
  int32_t v = 0;
  std::memcpy(&v, bytes.data() + 4 * k, 4);
  return v;
}

void append_int32(std::string* out, int64_t v) {
  const auto x = static_cast<int32_t>(v);
  out->append(reinterpret_cast<const char*>(&x), 4);
}

}  // namespace

void unpack_ov_strings(std::string_view packed, int64_t n, std::string* out,
                       const std::string& where) {
  auto bad = [&](const std::string& why) {
    fail(ErrorKind::InvalidModel, where, "the packed string tensor " + why);
  };
  if (packed.size() < 4) bad("has no string count");
  const int32_t count = int32_at(packed, 0);
  if (count != n)
    bad("holds " + std::to_string(count) + " strings, but the shape holds " + std::to_string(n));
  // The count, and for n > 0 the first offset and an end per string.
  const uint64_t header_words = n == 0 ? 1 : static_cast<uint64_t>(n) + 2;
  if (header_words * 4 > packed.size())
    bad("needs a " + std::to_string(header_words * 4) + "-byte header, but has " +
        std::to_string(packed.size()) + " bytes");
  const std::string_view chars = packed.substr(header_words * 4);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t begin = int32_at(packed, static_cast<size_t>(i) + 1);
    const int32_t end = int32_at(packed, static_cast<size_t>(i) + 2);
    if (begin < 0 || end < begin || static_cast<uint64_t>(end) > chars.size())
      bad("gives string " + std::to_string(i) + " the bytes " + std::to_string(begin) + ".." +
          std::to_string(end) + " of " + std::to_string(chars.size()));
    out[i].assign(chars.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin)));
  }
}

std::string pack_ov_strings(const std::string* strings, int64_t n, const std::string& where) {
  uint64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += strings[i].size();
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
  if (total > kMax || static_cast<uint64_t>(n) > kMax - 2)
    fail(ErrorKind::Unsupported, where,
         std::to_string(n) + " strings of " + std::to_string(total) +
             " bytes exceed OpenVINO's int32 count and offsets");
  std::string out;
  out.reserve(4 * (static_cast<size_t>(n) + 2) + total);
  append_int32(&out, n);
  if (n > 0) append_int32(&out, 0);
  int64_t end = 0;
  for (int64_t i = 0; i < n; ++i)
    append_int32(&out, end += static_cast<int64_t>(strings[i].size()));
  for (int64_t i = 0; i < n; ++i) out += strings[i];
  return out;
}

}  // namespace bough::openvino
