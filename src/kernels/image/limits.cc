#include "kernels/image/limits.h"

#include "bough/error.h"

namespace bough::kernels::image {

namespace {

std::string text(std::string_view format, const std::string& message) {
  return "ImageDecoder: " + std::string(format) + " image: " + message;
}

}  // namespace

void bad_image(std::string_view format, const std::string& message) {
  fail(ErrorKind::BadInput, "", text(format, message));
}

void unsupported_image(std::string_view format, const std::string& message) {
  fail(ErrorKind::Unsupported, "", text(format, message));
}

void check_dimensions(std::string_view format, int64_t width, int64_t height) {
  const std::string size = std::to_string(width) + " x " + std::to_string(height);
  if (width <= 0 || height <= 0) bad_image(format, "declares an empty size " + size);
  if (width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
    bad_image(format, "declares " + size + " pixels, over the cap of " + std::to_string(kMaxSide) +
                          " a side and " + std::to_string(kMaxPixels) + " in all");
}

Tensor new_image(std::string_view format, int64_t width, int64_t height, int64_t channels) {
  check_dimensions(format, width, height);
  return Tensor(ElemType::UInt8, Dims{height, width, channels});
}

}  // namespace bough::kernels::image
