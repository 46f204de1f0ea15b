// Whether a kernel's optional input is there to read.
#pragma once

#include <cstddef>

#include "ops/kernel.h"

namespace bough::ops {

// Input i is given (its name is not empty) and is not an empty optional.
inline bool given_input(const KernelIO& io, size_t i) {
  return io.has_input(i) && !io.value(i).is_none();
}

}  // namespace bough::ops
