// One decoder per format, each in its own file; decode.cc picks one by the data's first
// bytes. Each returns uint8 [height, width, 1 or 3] as image::decode describes.
#pragma once

#include <string_view>

#include "bough/tensor.h"

namespace bough::kernels::image {

Tensor decode_bmp(std::string_view bytes);
Tensor decode_jpeg(std::string_view bytes);
Tensor decode_jpeg2000(std::string_view bytes);
Tensor decode_png(std::string_view bytes);
Tensor decode_pnm(std::string_view bytes);
Tensor decode_tiff(std::string_view bytes);
Tensor decode_webp(std::string_view bytes);

}  // namespace bough::kernels::image
