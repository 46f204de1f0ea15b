// WebP through libwebp: lossy or lossless, a still image (an animation is refused), decoded
// straight into the output as RGB (alpha dropped).
#include <webp/decode.h>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "WebP";

}  // namespace

Tensor decode_webp(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data, bytes.size(), &features) != VP8_STATUS_OK)
    bad_image(kFormat, "libwebp cannot read the header (cut short, or not WebP inside)");
  if (features.has_animation) unsupported_image(kFormat, "an animation is not decoded");
  Tensor out = new_image(kFormat, features.width, features.height, 3);
  const size_t stride = static_cast<size_t>(features.width) * 3;
  if (!WebPDecodeRGBInto(data, bytes.size(), out.data<uint8_t>(), out.nbytes(),
                         static_cast<int>(stride)))
    bad_image(kFormat, "libwebp could not decode the pixels (the data is cut short or corrupt)");
  return out;
}

}  // namespace bough::kernels::image
