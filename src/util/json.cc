#include "util/json.h"

#include <cstdio>

#include "util/printable.h"

namespace bough::util {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // JSON text is UTF-8: a byte that is not part of valid UTF-8 becomes U+FFFD, as a
    // decoder's replacement would show it, and a valid sequence is copied whole.
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t len = utf8_sequence_length(s, i);
      out += len == 0 ? "\\ufffd" : s.substr(i, len);
      if (len > 1) i += len - 1;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace bough::util
