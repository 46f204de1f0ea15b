// `bough --version`: the version, and the CPU features the binary was compiled for next to
// those the CPU running it has.
#pragma once

#include <string>

namespace bough::cli {

std::string version_text();

}  // namespace bough::cli
