// Sliding-window geometry shared by Conv, ConvTranspose, Col2Im and the pooling operators:
// kernel shape, strides, dilations, pads and auto_pad, resolved against the spatial
// dimensions of one input. The operators read them from attributes (ops/onnx/window_attrs.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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
  // The image row (the row-major index over every spatial coordinate but the last) that the
  // outer kernel tap `ko` (likewise over every kernel coordinate but the last) reads for the
  // output coordinates `o` (the last one is not used), or -1 when it lies in the padding.
  int64_t image_row(std::span<const int64_t> o, int64_t ko) const;
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
