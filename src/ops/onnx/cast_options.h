// Cast's and CastLike's conversion attributes: saturate (opset 19+) and round_mode (24+).
#pragma once

#include "kernels/convert.h"
#include "ops/registry.h"

namespace bough::ops {

inline kernels::CastOptions read_cast_options(const BuildContext& ctx) {
  kernels::CastOptions o;
  if (ctx.since >= 19) o.saturate = ctx.attr_int("saturate", 1) != 0;
  if (ctx.since >= 24) {
    const std::string mode = ctx.attr_string("round_mode", "up");
    if (mode == "up")
      o.round = E8M0Rounding::Up;
    else if (mode == "down")
      o.round = E8M0Rounding::Down;
    else if (mode == "nearest")
      o.round = E8M0Rounding::Nearest;
    else
      ctx.invalid("round_mode must be 'up', 'down' or 'nearest', got '" + mode + "'");
  }
  return o;
}

}  // namespace bough::ops
