// An attribute naming the element type a computation is carried in (stash_type,
// softmax_precision), read the same way by every operator that has one.
#pragma once

#include <string_view>

#include "ops/node_view.h"

namespace bough::ops {

// The attribute `name`, float when absent; invalid unless it names a float type bough computes
// in (float, double, float16, bfloat16).
ElemType float_type_attr(const NodeView& node, std::string_view name);

}  // namespace bough::ops
