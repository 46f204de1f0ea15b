#include "kernels/image/decode.h"

#include "bough/error.h"
#include "kernels/image/formats.h"

namespace bough::kernels::image {

namespace {

bool starts_with(std::string_view bytes, std::string_view magic) {
  return bytes.substr(0, magic.size()) == magic;
}

}  // namespace

Tensor decode(std::string_view bytes) {
  using namespace std::string_view_literals;
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n"sv)) return decode_png(bytes);
  if (starts_with(bytes, "\xff\xd8\xff"sv)) return decode_jpeg(bytes);
  if (starts_with(bytes, "BM"sv)) return decode_bmp(bytes);
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '6')
    return decode_pnm(bytes);
  if (starts_with(bytes, "II*\0"sv) || starts_with(bytes, "MM\0*"sv) ||
      starts_with(bytes, "II+\0"sv) || starts_with(bytes, "MM\0+"sv))
    return decode_tiff(bytes);
  if (starts_with(bytes, "RIFF"sv) && bytes.size() >= 12 && bytes.substr(8, 4) == "WEBP"sv)
    return decode_webp(bytes);
  // A JP2 file opens with its signature box; a bare codestream with SOC and SIZ markers.
  if (starts_with(bytes, "\0\0\0\x0cjP  \r\n\x87\n"sv) || starts_with(bytes, "\xff\x4f\xff\x51"sv))
    return decode_jpeg2000(bytes);
  fail(ErrorKind::BadInput, "",
       "ImageDecoder: the " + std::to_string(bytes.size()) +
           " bytes are not an image of a known format (BMP, JPEG, JPEG 2000, PNG, PNM, TIFF, "
           "WebP), judging by their first bytes");
}

}  // namespace bough::kernels::image
