// Decoding an encoded image (BMP, JPEG, JPEG 2000, PNG, PNM, TIFF, WebP) to 8-bit pixels, for
// ImageDecoder. The format is told by the data's first bytes, never by a name.
#pragma once

#include <string_view>

#include "bough/tensor.h"

namespace bough::kernels::image {

// The image as uint8 [height, width, channels]: channels 1 for a grey image, 3 (R, G, B) for
// any other (alpha dropped, palettes expanded, samples over 8 bits cut to their high byte).
// Throws Error(BadInput) for data that is not a whole, valid image of a known format or whose
// dimensions pass the caps of image/limits.h, Error(Unsupported) for a valid image of a kind
// bough does not decode (a BMP with RLE compression, say).
Tensor decode(std::string_view bytes);

}  // namespace bough::kernels::image
