// Text for a terminal: names in messages come from untrusted model files, and a NUL, an
// escape sequence or a carriage return in one would cut a message short or act on the
// terminal that shows it; bytes that are not UTF-8 make the text unreadable to anything
// that decodes it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bough::util {

// `text` with the control characters (bytes below 0x20 but tab and newline, 0x7f, and the
// C1 controls U+0080-U+009F) and the bytes that are not part of valid UTF-8 written as
// \xNN, byte by byte; everything else as it is.
std::string printable(std::string_view text);

// A name (of a value, node, graph, input or output) as one line of output: as printable,
// and a newline or a tab is written \x0a or \x09 too, so a name cannot forge lines.
std::string printable_name(std::string_view name);

// The length of the valid UTF-8 sequence that starts at text[at] (1 to 4), or 0 when the
// bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a code
// point past U+10FFFF, or a sequence cut short).
size_t utf8_sequence_length(std::string_view text, size_t at);

}  // namespace bough::util
