// Cast's and CastLike's conversion attributes: saturate (opset 19+) and round_mode (24+).
#pragma once

#include "kernels/convert.h"
#include "ops/attr_choice.h"
#include "ops/registry.h"

namespace bough::ops {

inline kernels::CastOptions read_cast_options(const BuildContext& ctx) {
  kernels::CastOptions o;
  if (ctx.since >= 19) o.saturate = ctx.attr_int("saturate", 1) != 0;
  if (ctx.since >= 24)
    o.round = attr_choice<E8M0Rounding>(ctx, "round_mode", "up",
                                        {{"up", E8M0Rounding::Up},
                                         {"down", E8M0Rounding::Down},
                                         {"nearest", E8M0Rounding::Nearest}});
  return o;
}

}  // namespace bough::ops
