// Types at the boundary of a control-flow body, shared by the inference functions of If,
// Loop and Scan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/schema.h"

namespace bough::ops {

// A carried value as a Loop or Scan body sees it: its kind and element type, its shape
// left open, since it may change from one iteration to the next.
ir::Type carried_type(const ir::Type& initial);

// The type of `items` stacked along `axis` (of the result, in [0, rank]); `length` is the
// number of items when known.
ir::Type stacked_type(const ir::Type& item, int64_t axis, ir::Dim length);

// A tensor type without its dim `axis` (a scan slice); unknown rank stays unknown.
ir::Type slice_type(const ir::Type& whole, int64_t axis);

// The final value of a carried value: the union of its initial type and what the body
// returns; an error (reported, undefined returned) when they differ in kind or element.
ir::Type final_carried_type(InferContext& ctx, size_t output, const ir::Type& initial,
                            const ir::Type& returned);

}  // namespace bough::ops
