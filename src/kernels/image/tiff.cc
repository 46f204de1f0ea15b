// TIFF through libtiff, read from memory: the first image of the file, in any layout and
// photometric interpretation libtiff's RGBA interface knows (strips or tiles, grey, palette,
// RGB, YCbCr, CMYK; 1 to 16 bits a sample), made RGB (alpha dropped). libtiff's errors and
// warnings go to handlers of this one file (libtiff 4.5's open options), not the process's
// stderr; an error is the message of the Error thrown.
#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <string>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"
#include "kernels/image/memory_source.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "TIFF";

int on_error(TIFF*, void* user, const char*, const char* format, va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, args);
  static_cast<MemorySource*>(user)->keep_error(text);
  return 1;  // handled: nothing printed
}
int on_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

tmsize_t read_bytes(thandle_t h, void* out, tmsize_t n) {
  if (n < 0) return 0;
  return static_cast<tmsize_t>(static_cast<MemorySource*>(h)->read(out, static_cast<uint64_t>(n)));
}
tmsize_t write_bytes(thandle_t, void*, tmsize_t) { return 0; }
toff_t seek(thandle_t h, toff_t offset, int whence) {
  auto* s = static_cast<MemorySource*>(h);
  const uint64_t base = whence == SEEK_CUR ? s->at : whence == SEEK_END ? s->bytes.size() : 0;
  s->at = base + offset;
  return s->at;
}
int close_source(thandle_t) { return 0; }
toff_t size(thandle_t h) { return static_cast<MemorySource*>(h)->bytes.size(); }
int map(thandle_t, void**, toff_t*) { return 0; }
void unmap(thandle_t, void*, toff_t) {}

struct Options {
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  ~Options() { TIFFOpenOptionsFree(options); }
};
struct File {
  TIFF* tif = nullptr;
  ~File() {
    if (tif) TIFFClose(tif);
  }
};

}  // namespace

Tensor decode_tiff(std::string_view bytes) {
  MemorySource source{bytes};
  Options o;
  TIFFOpenOptionsSetErrorHandlerExtR(o.options, on_error, &source);
  TIFFOpenOptionsSetWarningHandlerExtR(o.options, on_warning, &source);
  // No one allocation of libtiff's may pass the RGBA raster's size at the pixel cap.
  TIFFOpenOptionsSetMaxSingleMemAlloc(o.options, kMaxPixels * 4);
  File f;
  f.tif = TIFFClientOpenExt("data", "rm", &source, read_bytes, write_bytes, seek, close_source,
                            size, map, unmap, o.options);
  auto failed = [&](const char* what) {
    bad_image(kFormat, source.error.empty() ? what : source.error);
  };
  if (!f.tif) failed("libtiff could not read the header");
  uint32_t width = 0, height = 0;
  if (!TIFFGetField(f.tif, TIFFTAG_IMAGEWIDTH, &width) ||
      !TIFFGetField(f.tif, TIFFTAG_IMAGELENGTH, &height))
    failed("the image has no width or height");
  check_dimensions(kFormat, width, height);
  char why[1024] = "";
  if (!TIFFRGBAImageOK(f.tif, why)) unsupported_image(kFormat, why);
  // libtiff gives each pixel as one uint32: R, G, B, A from the lowest byte up.
  Tensor rgba = new_image(kFormat, width, height, 4);
  auto* raster = reinterpret_cast<uint32_t*>(rgba.raw());
  if (!TIFFReadRGBAImageOriented(f.tif, width, height, raster, ORIENTATION_TOPLEFT, 1))
    failed("libtiff could not read the pixels");
  Tensor out = new_image(kFormat, width, height, 3);
  uint8_t* o3 = out.data<uint8_t>();
  for (size_t i = 0, n = size_t{width} * height; i < n; ++i) {
    o3[3 * i] = static_cast<uint8_t>(TIFFGetR(raster[i]));
    o3[3 * i + 1] = static_cast<uint8_t>(TIFFGetG(raster[i]));
    o3[3 * i + 2] = static_cast<uint8_t>(TIFFGetB(raster[i]));
  }
  return out;
}

}  // namespace bough::kernels::image
