// JPEG 2000 through OpenJPEG: a JP2 file or a bare J2K codestream, in strict mode (a
// codestream cut short is an error, not an image with its last layers missing). Grey
// images (one or two components, the second alpha) stay one channel, others take their
// first three components as R, G, B; samples of other precisions are scaled to 8 bits,
// signed ones shifted to start at 0. Components subsampled against each other, and
// YCC or CMYK colour spaces, are refused.
#include <openjpeg.h>

#include <algorithm>
#include <string>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"
#include "kernels/image/memory_source.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "JPEG 2000";

void on_error(const char* message, void* user) {
  static_cast<MemorySource*>(user)->keep_error(message);
}
void on_warning(const char*, void*) {}

OPJ_SIZE_T read_bytes(void* out, OPJ_SIZE_T n, void* user) {
  const uint64_t read = static_cast<MemorySource*>(user)->read(out, n);
  return read == 0 ? static_cast<OPJ_SIZE_T>(-1) : read;  // -1: OpenJPEG's end of stream
}
OPJ_OFF_T skip_bytes(OPJ_OFF_T n, void* user) {
  auto* s = static_cast<MemorySource*>(user);
  const int64_t target = static_cast<int64_t>(s->at) + n;
  if (target < 0 || target > static_cast<int64_t>(s->bytes.size())) return -1;
  s->at = static_cast<uint64_t>(target);
  return n;
}
OPJ_BOOL seek_to(OPJ_OFF_T at, void* user) {
  auto* s = static_cast<MemorySource*>(user);
  if (at < 0 || static_cast<uint64_t>(at) > s->bytes.size()) return OPJ_FALSE;
  s->at = static_cast<uint64_t>(at);
  return OPJ_TRUE;
}

// OpenJPEG's objects, destroyed however decode_jpeg2000 leaves.
struct Decoder {
  opj_codec_t* codec = nullptr;
  opj_stream_t* stream = nullptr;
  opj_image_t* image = nullptr;
  ~Decoder() {
    if (image) opj_image_destroy(image);
    if (stream) opj_stream_destroy(stream);
    if (codec) opj_destroy_codec(codec);
  }
};

uint8_t to_8_bits(int32_t v, const opj_image_comp_t& c) {
  int64_t u = v;
  if (c.sgnd) u += int64_t{1} << (c.prec - 1);
  const int64_t max = (int64_t{1} << c.prec) - 1;
  u = std::clamp<int64_t>(u, 0, max);
  if (c.prec > 8) return static_cast<uint8_t>(u >> (c.prec - 8));
  return static_cast<uint8_t>((u * 255 + max / 2) / max);
}

}  // namespace

Tensor decode_jpeg2000(std::string_view bytes) {
  MemorySource source{bytes};
  Decoder d;
  const bool codestream = bytes.substr(0, 2) == std::string_view("\xff\x4f", 2);
  d.codec = opj_create_decompress(codestream ? OPJ_CODEC_J2K : OPJ_CODEC_JP2);
  if (!d.codec) bad_image(kFormat, "OpenJPEG could not start");
  opj_set_error_handler(d.codec, on_error, &source);
  opj_set_warning_handler(d.codec, on_warning, &source);
  opj_set_info_handler(d.codec, on_warning, &source);
  opj_dparameters_t parameters;
  opj_set_default_decoder_parameters(&parameters);
  auto failed = [&](const char* what) {
    bad_image(kFormat, source.error.empty() ? what : source.error);
  };
  if (!opj_setup_decoder(d.codec, &parameters) || !opj_decoder_set_strict_mode(d.codec, OPJ_TRUE))
    failed("OpenJPEG could not start");
  d.stream = opj_stream_create(1 << 16, OPJ_TRUE);
  if (!d.stream) failed("OpenJPEG could not start");
  opj_stream_set_user_data(d.stream, &source, nullptr);
  opj_stream_set_user_data_length(d.stream, bytes.size());
  opj_stream_set_read_function(d.stream, read_bytes);
  opj_stream_set_skip_function(d.stream, skip_bytes);
  opj_stream_set_seek_function(d.stream, seek_to);
  if (!opj_read_header(d.stream, d.codec, &d.image)) failed("OpenJPEG could not read the header");
  const opj_image_t& header = *d.image;
  check_dimensions(kFormat, int64_t{header.x1} - header.x0, int64_t{header.y1} - header.y0);
  if (header.color_space == OPJ_CLRSPC_SYCC || header.color_space == OPJ_CLRSPC_EYCC ||
      header.color_space == OPJ_CLRSPC_CMYK)
    unsupported_image(kFormat, "YCC and CMYK colour spaces are not decoded");
  if (!opj_decode(d.codec, d.stream, d.image) || !opj_end_decompress(d.codec, d.stream))
    failed("OpenJPEG could not decode the pixels");
  const opj_image_t& im = *d.image;
  const int64_t width = int64_t{im.x1} - im.x0, height = int64_t{im.y1} - im.y0;
  const uint32_t channels = im.numcomps >= 3 ? 3 : 1;
  if (im.numcomps == 0) bad_image(kFormat, "has no components");
  for (uint32_t c = 0; c < channels; ++c) {
    const opj_image_comp_t& comp = im.comps[c];
    if (comp.w != width || comp.h != height || comp.dx != 1 || comp.dy != 1)
      unsupported_image(kFormat, "components subsampled against the image are not decoded");
    if (!comp.data || comp.prec < 1 || comp.prec > 31)
      bad_image(kFormat, "component " + std::to_string(c) + " has no samples of a valid precision");
  }
  Tensor out = new_image(kFormat, width, height, channels);
  uint8_t* o = out.data<uint8_t>();
  const size_t n = static_cast<size_t>(width * height);
  for (uint32_t c = 0; c < channels; ++c)
    for (size_t i = 0; i < n; ++i)
      o[i * channels + c] = to_8_bits(im.comps[c].data[i], im.comps[c]);
  return out;
}

}  // namespace bough::kernels::image
