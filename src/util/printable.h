// Text for a terminal: names in messages come from untrusted model files, and a NUL, an
// escape sequence or a carriage return in one would cut a message short or act on the
// terminal that shows it.
#pragma once

#include <string>
#include <string_view>

namespace bough::util {

// `text` with the control bytes (below 0x20 but tab and newline, and 0x7f) written as \xNN;
// everything else, UTF-8 included, as it is.
std::string printable(std::string_view text);

}  // namespace bough::util
