// What every image decoder shares: the caps on declared dimensions that keep a hostile image
// from making the process allocate what a few bytes claim, and the errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bough/tensor.h"

namespace bough::kernels::image {

// A side may be at most 65,535 pixels (JPEG's own limit) and an image at most 2^26 pixels
// (8192 x 8192; 192 MiB of RGB output). Decoders check the header's dimensions against them
// before they allocate anything for the pixels.
constexpr int64_t kMaxSide = 65535;
constexpr int64_t kMaxPixels = int64_t{1} << 26;

// Throws Error(BadInput) "ImageDecoder: FORMAT image: MESSAGE".
[[noreturn]] void bad_image(std::string_view format, const std::string& message);
// Throws Error(Unsupported) "ImageDecoder: FORMAT image: MESSAGE".
[[noreturn]] void unsupported_image(std::string_view format, const std::string& message);

// Refuses dimensions that are zero, negative or past the caps.
void check_dimensions(std::string_view format, int64_t width, int64_t height);

// A uint8 [height, width, channels] tensor for the decoded pixels, after check_dimensions.
// Made as a tensor so that a session's memory cap counts it.
Tensor new_image(std::string_view format, int64_t width, int64_t height, int64_t channels);

}  // namespace bough::kernels::image
