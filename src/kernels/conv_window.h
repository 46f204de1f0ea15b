// Sliding-window geometry shared by Conv, ConvTranspose, Col2Im and the pooling operators:
// the kernel_shape / strides / dilations / pads / auto_pad attributes, resolved against the
// spatial dimensions of one input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bough::kernels {

enum class AutoPad { NotSet, SameUpper, SameLower, Valid };

std::optional<AutoPad> parse_auto_pad(std::string_view s);

// The attributes as the node gives them; empty lists take the defaults (stride and dilation
// 1, no padding; the kernel from the weights for convolutions).
struct WindowAttrs {
  std::vector<int64_t> kernel, strides, dilations, pads;
  AutoPad auto_pad = AutoPad::NotSet;
  bool ceil_mode = false;
};

// Reads the window attributes through a BuildContext; invalid() on a bad auto_pad.
template <typename Ctx>
WindowAttrs read_window_attrs(const Ctx& ctx) {
  WindowAttrs a;
  a.kernel = ctx.attr_ints("kernel_shape");
  a.strides = ctx.attr_ints("strides");
  a.dilations = ctx.attr_ints("dilations");
  a.pads = ctx.attr_ints("pads");
  a.ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  const std::string pad = ctx.attr_string("auto_pad", "NOTSET");
  const std::optional<AutoPad> mode = parse_auto_pad(pad);
  if (!mode) ctx.invalid("unknown auto_pad '" + pad + "'");
  a.auto_pad = *mode;
  return a;
}

// One window laid over an "image" of spatial size `in`, giving `out` positions: output
// position o reads image positions o*stride - pad_begin + k*dilation for each tap k.
struct Window {
  std::vector<int64_t> in, out, kernel, stride, dilation, pad_begin, pad_end;

  size_t rank() const { return in.size(); }
  int64_t in_numel() const;
  int64_t out_numel() const;
  int64_t kernel_numel() const;
  // True when every output position reads exactly the same image position (1x1 kernel,
  // stride 1, no padding): the image is its own column matrix.
  bool is_pointwise() const;
};

// Resolves `attrs` for an image of spatial size `in` and a kernel of spatial size `kernel`
// (taken from the weights, or from attrs.kernel when empty). Throws Error(BadInput) when the
// attributes do not fit the input or the output would be empty.
Window resolve_window(const WindowAttrs& attrs, std::span<const int64_t> in,
                      std::span<const int64_t> kernel = {});

// attrs.strides / dilations / pads checked against `rank` and filled with the defaults;
// throws Error(BadInput) on a length mismatch or a non-positive stride or dilation.
void check_window_lists(WindowAttrs& attrs, size_t rank);

}  // namespace bough::kernels
