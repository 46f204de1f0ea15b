#include "kernels/conv_window.h"

#include <algorithm>

#include "bough/error.h"
#include "bough/tensor.h"

namespace bough::kernels {

namespace {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t d : v) n *= d;
  return n;
}

int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

std::optional<AutoPad> parse_auto_pad(std::string_view s) {
  if (s == "NOTSET" || s.empty()) return AutoPad::NotSet;
  if (s == "SAME_UPPER") return AutoPad::SameUpper;
  if (s == "SAME_LOWER") return AutoPad::SameLower;
  if (s == "VALID") return AutoPad::Valid;
  return std::nullopt;
}

int64_t Window::in_numel() const { return product(in); }
int64_t Window::out_numel() const { return product(out); }
int64_t Window::kernel_numel() const { return product(kernel); }

bool Window::is_pointwise() const {
  for (size_t d = 0; d < rank(); ++d)
    if (kernel[d] != 1 || stride[d] != 1 || pad_begin[d] != 0 || pad_end[d] != 0 || in[d] != out[d])
      return false;
  return true;
}

int64_t Window::image_row(std::span<const int64_t> o, int64_t ko) const {
  int64_t row = 0, scale = 1;
  for (size_t d = rank() - 1; d-- > 0;) {
    const int64_t k = ko % kernel[d];
    ko /= kernel[d];
    const int64_t i = o[d] * stride[d] - pad_begin[d] + k * dilation[d];
    if (i < 0 || i >= in[d]) return -1;
    row += i * scale;
    scale *= in[d];
  }
  return row;
}

void check_window_lists(WindowAttrs& a, size_t rank) {
  auto fill = [rank](std::vector<int64_t>& v, size_t n, int64_t value, const char* name) {
    if (v.empty()) v.assign(n, value);
    if (v.size() != n)
      bad(std::string(name) + " has " + std::to_string(v.size()) + " entries, expected " +
          std::to_string(n) + " for " + std::to_string(rank) + " spatial dimensions");
  };
  fill(a.strides, rank, 1, "strides");
  fill(a.dilations, rank, 1, "dilations");
  fill(a.pads, 2 * rank, 0, "pads");
  for (size_t d = 0; d < rank; ++d) {
    if (a.strides[d] < 1) bad("strides must be positive");
    if (a.dilations[d] < 1) bad("dilations must be positive");
    if (a.pads[d] < 0 || a.pads[rank + d] < 0) bad("pads must not be negative");
  }
}

Window resolve_window(const WindowAttrs& attrs, std::span<const int64_t> in,
                      std::span<const int64_t> kernel) {
  const size_t rank = in.size();
  WindowAttrs a = attrs;
  if (kernel.empty()) {
    if (a.kernel.size() != rank)
      bad("kernel_shape has " + std::to_string(a.kernel.size()) + " entries, expected " +
          std::to_string(rank));
  } else {
    if (!a.kernel.empty() &&
        !std::equal(a.kernel.begin(), a.kernel.end(), kernel.begin(), kernel.end()))
      bad("kernel_shape does not match the weights' shape " + shape_string(kernel));
    a.kernel.assign(kernel.begin(), kernel.end());
  }
  check_window_lists(a, rank);
  Window w;
  w.in.assign(in.begin(), in.end());
  w.kernel = a.kernel;
  w.stride = a.strides;
  w.dilation = a.dilations;
  w.pad_begin.assign(a.pads.begin(), a.pads.begin() + static_cast<std::ptrdiff_t>(rank));
  w.pad_end.assign(a.pads.begin() + static_cast<std::ptrdiff_t>(rank), a.pads.end());
  w.out.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (w.kernel[d] < 1) bad("kernel dimensions must be positive");
    const int64_t span = (w.kernel[d] - 1) * w.dilation[d] + 1;
    const int64_t s = w.stride[d];
    int64_t out = 0;
    switch (a.auto_pad) {
      case AutoPad::SameUpper:
      case AutoPad::SameLower: {
        out = ceil_div(w.in[d], s);
        const int64_t total = std::max<int64_t>(0, (out - 1) * s + span - w.in[d]);
        const int64_t small = total / 2, large = total - small;
        w.pad_begin[d] = a.auto_pad == AutoPad::SameUpper ? small : large;
        w.pad_end[d] = a.auto_pad == AutoPad::SameUpper ? large : small;
        break;
      }
      case AutoPad::Valid:
        w.pad_begin[d] = w.pad_end[d] = 0;
        [[fallthrough]];
      case AutoPad::NotSet: {
        const int64_t room = w.in[d] + w.pad_begin[d] + w.pad_end[d] - span;
        if (room < 0)
          bad("the window (" + std::to_string(span) + ") is larger than the padded input (" +
              std::to_string(w.in[d] + w.pad_begin[d] + w.pad_end[d]) + ")");
        out = (a.ceil_mode ? ceil_div(room, s) : floor_div(room, s)) + 1;
        // A last window that would start inside the end padding is dropped.
        if (a.ceil_mode && (out - 1) * s >= w.in[d] + w.pad_begin[d]) --out;
        break;
      }
    }
    if (out < 1) bad("the output would be empty");
    w.out[d] = out;
  }
  return w;
}

}  // namespace bough::kernels
