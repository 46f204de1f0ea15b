// JSON text for the machine-readable outputs of the CLI (diagnostics, operator lists).
#pragma once

#include <string>

namespace bough::util {

// `s` as a quoted JSON string; ONNX names may hold any byte: control bytes are escaped, and
// a byte that is not part of valid UTF-8 is written as U+FFFD.
std::string json_string(const std::string& s);

}  // namespace bough::util
