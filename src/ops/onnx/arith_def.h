// The definition Add, Sub, Mul and Div share: five schema rows alike (legacy broadcast and
// axis before 7, bfloat16 from 13, every numeric type from 14) and broadcast inference.
#pragma once

#include <string_view>

#include "ops/registry.h"

namespace bough::ops {

OpDef arith_def(std::string_view name, KernelFactory make);

}  // namespace bough::ops
