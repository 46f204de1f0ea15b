// Whole-file reads and crash-safe writes.
#pragma once

#include <string>
#include <string_view>

namespace bough {

// Reads a whole file; throws Error(IO) naming the path.
std::string read_file(const std::string& path);

// Whether two paths name the same file (also when `b` does not exist yet: by their
// canonical spelling).
bool same_file(const std::string& a, const std::string& b);

// Writes to a temporary file in the same folder, then renames it over `path`, so a failed
// write leaves any old file intact. Refuses to replace an existing file unless `overwrite`.
void write_file_atomic(const std::string& path, std::string_view bytes, bool overwrite = true);

}  // namespace bough
