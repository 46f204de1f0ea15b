// The sliding-window attributes of Conv, ConvTranspose, Col2Im and the pooling operators
// (kernel_shape, strides, dilations, pads, auto_pad, ceil_mode), read from a node.
#pragma once

#include <optional>
#include <string>

#include "kernels/conv_window.h"
#include "ops/registry.h"

namespace bough::ops {

// Invalid model on an unknown auto_pad.
inline kernels::WindowAttrs read_window_attrs(const NodeView& ctx) {
  kernels::WindowAttrs a;
  a.kernel = ctx.attr_ints("kernel_shape");
  a.strides = ctx.attr_ints("strides");
  a.dilations = ctx.attr_ints("dilations");
  a.pads = ctx.attr_ints("pads");
  a.ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  const std::string pad = ctx.attr_string("auto_pad", "NOTSET");
  const std::optional<kernels::AutoPad> mode = kernels::parse_auto_pad(pad);
  if (!mode) ctx.invalid("unknown auto_pad '" + pad + "'");
  a.auto_pad = *mode;
  return a;
}

// The window attributes of pooling operator `op`, which needs kernel_shape.
inline kernels::WindowAttrs read_pool_attrs(const NodeView& ctx, const char* op) {
  kernels::WindowAttrs a = read_window_attrs(ctx);
  if (a.kernel.empty()) ctx.invalid(std::string(op) + " needs kernel_shape");
  return a;
}

}  // namespace bough::ops
