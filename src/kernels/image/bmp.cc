// BMP (Windows and OS/2 bitmaps), parsed here: 1, 4 and 8 bits a pixel through a palette,
// 24 and 32 bits as B, G, R(, X), and 16 and 32 bits through channel masks (BI_BITFIELDS;
// 16 bits without masks is 5-5-5). Rows run bottom-up unless the height is negative. Every
// offset and size is checked against the data before it is read; RLE compression is refused.
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "BMP";
constexpr uint32_t kRgb = 0, kBitfields = 3, kAlphaBitfields = 6;

uint32_t u16(std::string_view b, size_t at) {
  if (at + 2 > b.size()) bad_image(kFormat, "the header is cut short");
  return static_cast<uint8_t>(b[at]) | static_cast<uint8_t>(b[at + 1]) << 8;
}
uint32_t u32(std::string_view b, size_t at) { return u16(b, at) | u16(b, at + 2) << 16; }

// A channel of a BI_BITFIELDS pixel: its mask, and the value scaled to 0..255.
struct Channel {
  uint32_t mask = 0;
  int shift = 0;
  uint32_t max = 0;
  explicit Channel(uint32_t m) : mask(m) {
    if (m == 0) return;
    shift = std::countr_zero(m);
    max = m >> shift;
  }
  uint8_t operator()(uint32_t pixel) const {
    if (max == 0) return 0;
    return static_cast<uint8_t>(uint64_t{(pixel & mask) >> shift} * 255 / max);
  }
};

struct Header {
  int64_t width = 0, height = 0;
  bool top_down = false;
  uint32_t bits = 0, compression = kRgb, colors = 0;
  size_t palette_at = 0, palette_entry = 4;
  uint32_t masks[3] = {0, 0, 0};
};

Header read_header(std::string_view b) {
  Header h;
  const uint32_t info_size = u32(b, 14);
  if (info_size == 12) {  // OS/2 BITMAPCOREHEADER: 16-bit sizes, 3-byte palette entries
    h.width = u16(b, 18);
    h.height = u16(b, 20);
    h.bits = u16(b, 24);
    h.palette_entry = 3;
  } else if (info_size >= 40 && info_size <= 124) {
    h.width = static_cast<int32_t>(u32(b, 18));
    const int32_t height = static_cast<int32_t>(u32(b, 22));
    h.top_down = height < 0;
    h.height = h.top_down ? -static_cast<int64_t>(height) : height;
    h.bits = u16(b, 28);
    h.compression = u32(b, 30);
    h.colors = u32(b, 46);
  } else {
    bad_image(kFormat, "has an info header of " + std::to_string(info_size) + " bytes");
  }
  h.palette_at = 14 + info_size;
  if (h.compression == kBitfields || h.compression == kAlphaBitfields) {
    // The masks follow a 40-byte header, and are inside the longer ones at the same place.
    for (int c = 0; c < 3; ++c) h.masks[c] = u32(b, 54 + 4 * static_cast<size_t>(c));
    if (info_size == 40) h.palette_at += h.compression == kBitfields ? 12 : 16;
    if (h.bits != 16 && h.bits != 32)
      bad_image(kFormat, "has channel masks at " + std::to_string(h.bits) + " bits a pixel");
  } else if (h.compression != kRgb) {
    unsupported_image(kFormat, "compression " + std::to_string(h.compression) +
                                   " (RLE, JPEG or PNG inside a BMP) is not decoded");
  } else if (h.bits == 16) {
    h.masks[0] = 0x7c00, h.masks[1] = 0x03e0, h.masks[2] = 0x001f;
  }
  if (h.bits != 1 && h.bits != 4 && h.bits != 8 && h.bits != 16 && h.bits != 24 && h.bits != 32)
    bad_image(kFormat, "has " + std::to_string(h.bits) + " bits a pixel");
  check_dimensions(kFormat, h.width, h.height);
  return h;
}

// The palette as R, G, B triples; indices past its end read black.
std::vector<uint8_t> read_palette(std::string_view b, const Header& h) {
  const uint32_t most = 1u << h.bits;
  const uint32_t n = h.colors == 0 || h.colors > most ? most : h.colors;
  std::vector<uint8_t> rgb(3 * size_t{most}, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const size_t at = h.palette_at + i * h.palette_entry;
    if (at + 3 > b.size()) bad_image(kFormat, "the palette is cut short");
    for (int c = 0; c < 3; ++c) rgb[3 * i + c] = static_cast<uint8_t>(b[at + 2 - c]);
  }
  return rgb;
}

}  // namespace

Tensor decode_bmp(std::string_view b) {
  const Header h = read_header(b);
  const size_t pixels_at = u32(b, 10);
  const size_t row_bytes = (static_cast<size_t>(h.width) * h.bits + 31) / 32 * 4;
  const size_t rows = static_cast<size_t>(h.height);
  if (pixels_at > b.size() || (b.size() - pixels_at) / row_bytes < rows)
    bad_image(kFormat, "the pixels are cut short: " + std::to_string(rows) + " rows of " +
                           std::to_string(row_bytes) + " bytes need more than the " +
                           std::to_string(b.size()) + " bytes given");
  const std::vector<uint8_t> palette = h.bits <= 8 ? read_palette(b, h) : std::vector<uint8_t>{};
  const Channel channels[3] = {Channel(h.masks[0]), Channel(h.masks[1]), Channel(h.masks[2])};
  Tensor out = new_image(kFormat, h.width, h.height, 3);
  uint8_t* dst = out.data<uint8_t>();
  const auto* src = reinterpret_cast<const uint8_t*>(b.data()) + pixels_at;
  for (size_t y = 0; y < rows; ++y) {
    const uint8_t* row = src + (h.top_down ? y : rows - 1 - y) * row_bytes;
    uint8_t* o = dst + y * static_cast<size_t>(h.width) * 3;
    for (int64_t x = 0; x < h.width; ++x, o += 3) {
      if (h.bits <= 8) {
        const size_t bit = static_cast<size_t>(x) * h.bits;
        const uint32_t index = (row[bit / 8] >> (8 - h.bits - bit % 8)) & ((1u << h.bits) - 1);
        std::memcpy(o, &palette[3 * index], 3);
      } else if (h.compression == kRgb && h.bits >= 24) {
        const uint8_t* p = row + static_cast<size_t>(x) * (h.bits / 8);
        o[0] = p[2], o[1] = p[1], o[2] = p[0];
      } else {
        const uint8_t* p = row + static_cast<size_t>(x) * (h.bits / 8);
        uint32_t pixel = p[0] | p[1] << 8;
        if (h.bits == 32) pixel |= uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
        for (int c = 0; c < 3; ++c) o[c] = channels[c](pixel);
      }
    }
  }
  return out;
}

}  // namespace bough::kernels::image
