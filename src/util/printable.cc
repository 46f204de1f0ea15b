#include "util/printable.h"

#include <cstdint>

namespace bough::util {

namespace {

void append_hex(unsigned char b, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  *out += "\\x";
  *out += kHex[b >> 4];
  *out += kHex[b & 0xf];
}

std::string escaped(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const size_t len = utf8_sequence_length(text, i);
    const bool line_break = b == '\n' || b == '\t';
    const bool c1 = len == 2 && b == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if (len == 0 || c1 || (b < 0x20 && !(line_break && keep_line_breaks)) || b == 0x7f) {
      const size_t n = len == 0 ? 1 : len;
      for (size_t k = 0; k < n; ++k) append_hex(static_cast<unsigned char>(text[i + k]), &out);
      i += n;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace

size_t utf8_sequence_length(std::string_view text, size_t at) {
  const auto b = static_cast<unsigned char>(text[at]);
  if (b < 0x80) return 1;
  size_t len;
  uint32_t c;
  if (b >= 0xc2 && b <= 0xdf) {
    len = 2, c = b & 0x1f;
  } else if (b >= 0xe0 && b <= 0xef) {
    len = 3, c = b & 0x0f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4, c = b & 0x07;
  } else {
    return 0;  // a continuation byte, or a lead byte of an overlong or too large form
  }
  if (at + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto cont = static_cast<unsigned char>(text[at + k]);
    if ((cont & 0xc0) != 0x80) return 0;
    c = (c << 6) | (cont & 0x3f);
  }
  const bool overlong = (len == 3 && c < 0x800) || (len == 4 && c < 0x10000);
  const bool surrogate = c >= 0xd800 && c <= 0xdfff;
  if (overlong || surrogate || c > 0x10ffff) return 0;
  return len;
}

std::string printable(std::string_view text) { return escaped(text, true); }

std::string printable_name(std::string_view name) { return escaped(name, false); }

}  // namespace bough::util
