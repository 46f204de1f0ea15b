// PNM (Netpbm), parsed here: P1/P4 bitmaps (1 is black), P2/P5 grey and P3/P6 colour maps,
// as text (P1-P3) or binary (P4-P6). Samples of a maximum value other than 255 are scaled to
// 0..255 with rounding; binary samples over 255 are two bytes, big-endian.
#include <cstdint>

#include "kernels/image/formats.h"
#include "kernels/image/limits.h"

namespace bough::kernels::image {

namespace {

constexpr std::string_view kFormat = "PNM";

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b), at_(2) {}

  // The next decimal number, after whitespace and comments (# to the end of the line).
  // `what` names it in errors. Values past `most` are refused before they can overflow.
  int64_t number(const char* what, int64_t most) {
    skip_space();
    if (at_ >= b_.size() || b_[at_] < '0' || b_[at_] > '9')
      bad_image(kFormat, std::string("the ") + what + " is missing or not a number");
    int64_t v = 0;
    while (at_ < b_.size() && b_[at_] >= '0' && b_[at_] <= '9') {
      v = v * 10 + (b_[at_++] - '0');
      if (v > most)
        bad_image(kFormat, std::string("the ") + what + " is over " + std::to_string(most));
    }
    return v;
  }
  // A text bitmap's next pixel: one digit 0 or 1, not necessarily followed by a space.
  int bit() {
    skip_space();
    if (at_ >= b_.size()) cut_short();
    const char c = b_[at_++];
    if (c != '0' && c != '1') bad_image(kFormat, "a bitmap pixel is not 0 or 1");
    return c - '0';
  }
  // After the header of a binary map: exactly one whitespace byte, then the samples.
  void end_of_header() {
    if (at_ >= b_.size() || !is_space(b_[at_]))
      bad_image(kFormat, "the header does not end in a space");
    ++at_;
  }
  const uint8_t* take(size_t n) {
    if (b_.size() - at_ < n) cut_short();
    const auto* p = reinterpret_cast<const uint8_t*>(b_.data()) + at_;
    at_ += n;
    return p;
  }
  size_t remaining() const { return b_.size() - at_; }
  [[noreturn]] static void cut_short() { bad_image(kFormat, "the pixels are cut short"); }

 private:
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }
  void skip_space() {
    while (at_ < b_.size()) {
      if (b_[at_] == '#') {
        while (at_ < b_.size() && b_[at_] != '\n' && b_[at_] != '\r') ++at_;
      } else if (is_space(b_[at_])) {
        ++at_;
      } else {
        break;
      }
    }
  }
  std::string_view b_;
  size_t at_;
};

uint8_t scaled(int64_t v, int64_t max) {
  if (v > max) bad_image(kFormat, "a sample is over the maximum value " + std::to_string(max));
  return static_cast<uint8_t>((v * 255 + max / 2) / max);
}

}  // namespace

Tensor decode_pnm(std::string_view b) {
  const int kind = b[1] - '0';  // decode() checked "P1".."P6"
  const bool binary = kind >= 4;
  const bool bitmap = kind == 1 || kind == 4;
  const int64_t channels = kind == 3 || kind == 6 ? 3 : 1;
  Reader r(b);
  const int64_t width = r.number("width", kMaxSide + 1);
  const int64_t height = r.number("height", kMaxSide + 1);
  check_dimensions(kFormat, width, height);
  const int64_t max = bitmap ? 1 : r.number("maximum value", 65535);
  if (max == 0) bad_image(kFormat, "the maximum value is 0");
  const size_t row = static_cast<size_t>(width * channels);
  if (binary) {
    r.end_of_header();
    // Refused before the pixels are allocated: a few bytes may declare a large image.
    const size_t row_bytes =
        kind == 4 ? (static_cast<size_t>(width) + 7) / 8 : row * (max > 255 ? 2 : 1);
    if (r.remaining() / row_bytes < static_cast<size_t>(height)) Reader::cut_short();
  }
  Tensor out = new_image(kFormat, width, height, channels);
  uint8_t* o = out.data<uint8_t>();
  for (int64_t y = 0; y < height; ++y, o += row) {
    if (kind == 4) {  // rows of bits, most significant first, each row padded to a byte
      const uint8_t* p = r.take((static_cast<size_t>(width) + 7) / 8);
      for (int64_t x = 0; x < width; ++x) o[x] = (p[x / 8] >> (7 - x % 8)) & 1 ? 0 : 255;
    } else if (kind == 1) {
      for (int64_t x = 0; x < width; ++x) o[x] = r.bit() ? 0 : 255;
    } else if (binary) {
      const size_t bytes = max > 255 ? 2 : 1;
      const uint8_t* p = r.take(row * bytes);
      for (size_t i = 0; i < row; ++i)
        o[i] = scaled(bytes == 2 ? p[2 * i] << 8 | p[2 * i + 1] : p[i], max);
    } else {
      for (size_t i = 0; i < row; ++i) o[i] = scaled(r.number("sample", 65535), max);
    }
  }
  return out;
}

}  // namespace bough::kernels::image
