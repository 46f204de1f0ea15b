// PNG through libpng. libpng reports errors by longjmp to the setjmp in decode_png; the
// handler keeps the message so the Error can say what was wrong. Palettes and low bit
// depths are expanded, 16-bit samples cut to their high byte, alpha dropped, interlacing
// undone; grey images stay one channel.
#include <png.h>

#include <csetjmp>
#include <string>
#include <vector>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"
#include "kernels/image/memory_source.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "PNG";

void on_error(png_structp png, png_const_charp message) {
  static_cast<MemorySource*>(png_get_error_ptr(png))->keep_error(message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

void read_bytes(png_structp png, png_bytep out, size_t n) {
  if (static_cast<MemorySource*>(png_get_io_ptr(png))->read(out, n) != n)
    png_error(png, "the data is cut short");
}

// libpng's structures, destroyed however decode_png leaves.
struct Reader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~Reader() { png_destroy_read_struct(&png, &info, nullptr); }
};

// Runs libpng, filling `out`; false after a libpng error (its message in source.error).
// What the decoding changes lives outside this frame, so nothing is left in registers that
// the longjmp would restore to stale values.
bool read_png(Reader& r, MemorySource& source, Tensor& out, std::vector<png_bytep>& rows) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  png_set_read_fn(r.png, &source, read_bytes);
  png_set_user_limits(r.png, kMaxSide, kMaxSide);
  png_set_chunk_malloc_max(r.png, 8 << 20);  // a text or ICC chunk may not claim more
  png_read_info(r.png, r.info);
  const int64_t width = png_get_image_width(r.png, r.info);
  const int64_t height = png_get_image_height(r.png, r.info);
  check_dimensions(kFormat, width, height);
  const int color = png_get_color_type(r.png, r.info);
  png_set_expand_gray_1_2_4_to_8(r.png);
  png_set_palette_to_rgb(r.png);
  png_set_strip_16(r.png);
  png_set_strip_alpha(r.png);
  png_set_interlace_handling(r.png);
  png_read_update_info(r.png, r.info);
  const int64_t channels = color & PNG_COLOR_MASK_COLOR ? 3 : 1;
  if (png_get_rowbytes(r.png, r.info) != static_cast<size_t>(width * channels))
    bad_image(kFormat, "libpng's rows are not the size expected");
  out = new_image(kFormat, width, height, channels);
  rows.resize(static_cast<size_t>(height));
  for (size_t y = 0; y < rows.size(); ++y)
    rows[y] = out.data<uint8_t>() + y * static_cast<size_t>(width * channels);
  png_read_image(r.png, rows.data());
  png_read_end(r.png, nullptr);
  return true;
}

}  // namespace

Tensor decode_png(std::string_view bytes) {
  MemorySource source{bytes};
  Reader r;
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, on_error, on_warning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.info) bad_image(kFormat, "libpng could not start");
  Tensor out;
  std::vector<png_bytep> rows;
  if (!read_png(r, source, out, rows)) bad_image(kFormat, source.error);
  return out;
}

}  // namespace bough::kernels::image
