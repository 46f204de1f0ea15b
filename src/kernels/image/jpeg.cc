// JPEG through libjpeg(-turbo), with its defaults (accurate integer IDCT, smooth chroma
// upsampling) as PIL and OpenCV use them. libjpeg reports errors through error_exit, which
// must not return: it longjmps to the setjmp in read_jpeg. Its warnings about corrupt data —
// a file cut short (libjpeg would pad it with grey), a bad Huffman code — are refused too;
// only stray bytes between markers, which encoders leave, pass. Grey JPEGs stay one channel,
// colour ones come out as RGB, CMYK ones (stored inverted, as Adobe writes them) become RGB.
// jpeglib.h uses size_t and FILE without including their headers.
#include <cstddef>
#include <cstdio>
// (kept apart so that sorting keeps them first)
#include <jerror.h>
#include <jpeglib.h>

#include <csetjmp>
#include <string>
#include <vector>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "JPEG";

struct ErrorManager {
  jpeg_error_mgr base;  // first, so libjpeg's pointer to it is one to this
  std::jmp_buf jump;
  std::string message;
};

[[noreturn]] void on_error(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
  char text[JMSG_LENGTH_MAX];
  e->base.format_message(cinfo, text);
  e->message = text;
  std::longjmp(e->jump, 1);
}

void on_message(j_common_ptr cinfo, int level) {
  // Level -1 is a warning about corrupt data; the others are traces.
  if (level == -1 && cinfo->err->msg_code != JWRN_EXTRANEOUS_DATA) on_error(cinfo);
}

struct Decompressor {
  jpeg_decompress_struct cinfo{};
  ErrorManager errors;
  ~Decompressor() { jpeg_destroy_decompress(&cinfo); }
};

// Runs libjpeg, filling `out`; false after an error (its message in d.errors.message).
bool read_jpeg(Decompressor& d, std::string_view bytes, Tensor& out, std::vector<uint8_t>& cmyk) {
  if (setjmp(d.errors.jump)) return false;
  jpeg_create_decompress(&d.cinfo);
  jpeg_mem_src(&d.cinfo, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  jpeg_read_header(&d.cinfo, TRUE);
  check_dimensions(kFormat, d.cinfo.image_width, d.cinfo.image_height);
  const J_COLOR_SPACE in = d.cinfo.jpeg_color_space;
  const bool four = in == JCS_CMYK || in == JCS_YCCK;
  d.cinfo.out_color_space = in == JCS_GRAYSCALE ? JCS_GRAYSCALE : four ? JCS_CMYK : JCS_RGB;
  jpeg_start_decompress(&d.cinfo);
  const int64_t width = d.cinfo.output_width, height = d.cinfo.output_height;
  const int64_t channels = d.cinfo.output_components == 1 ? 1 : 3;
  out = new_image(kFormat, width, height, channels);
  if (four) cmyk.resize(static_cast<size_t>(width) * 4);
  while (d.cinfo.output_scanline < d.cinfo.output_height) {
    uint8_t* row = out.data<uint8_t>() + d.cinfo.output_scanline * width * channels;
    JSAMPROW target = four ? cmyk.data() : row;
    jpeg_read_scanlines(&d.cinfo, &target, 1);
    if (!four) continue;
    for (int64_t x = 0; x < width; ++x) {
      const unsigned k = cmyk[4 * x + 3];
      for (int c = 0; c < 3; ++c) row[3 * x + c] = static_cast<uint8_t>(cmyk[4 * x + c] * k / 255);
    }
  }
  jpeg_finish_decompress(&d.cinfo);
  return true;
}

}  // namespace

Tensor decode_jpeg(std::string_view bytes) {
  Decompressor d;
  d.cinfo.err = jpeg_std_error(&d.errors.base);
  d.errors.base.error_exit = on_error;
  d.errors.base.emit_message = on_message;
  Tensor out;
  std::vector<uint8_t> cmyk;
  if (!read_jpeg(d, bytes, out, cmyk)) bad_image(kFormat, d.errors.message);
  return out;
}

}  // namespace bough::kernels::image
