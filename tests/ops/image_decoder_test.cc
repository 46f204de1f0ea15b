// ImageDecoder on small images whose pixels are known by construction: BMP and PNM files
// written byte by byte here, PNG and TIFF files written by tests/fixtures/images/
// make_images.py; pixel formats worked out by hand (grey = 0.299 R + 0.587 G + 0.114 B,
// rounded). Then hostile images: cut short, huge declared sizes, the wrong content behind
// a format's signature, a session's memory cap, each refused with an error naming the
// format, the model and the node.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"
#include "error_text.h"
#include "model_builder.h"
#include "test_paths.h"
#include "util/files.h"

namespace bough {
namespace {

using test::expect_error_mentioning;

Tensor bytes_tensor(const std::string& bytes) {
  Tensor t(ElemType::UInt8, Dims{static_cast<int64_t>(bytes.size())});
  if (!bytes.empty()) std::memcpy(t.raw(), bytes.data(), bytes.size());
  return t;
}

Tensor decode(const std::string& bytes, const std::string& format = "RGB") {
  return test::run_node(
      "ImageDecoder", {{"x", bytes_tensor(bytes)}}, 1,
      [&](onnxpb::NodeProto& n) { test::set_string(n, "pixel_format", format); }, 20,
      "image_decoder")[0];
}

std::vector<int> pixels(const Tensor& t) {
  const uint8_t* p = t.data<uint8_t>();
  return std::vector<int>(p, p + t.numel());
}

std::string fixture(const std::string& name) {
  return read_file(test::source_dir() + "/tests/fixtures/images/" + name);
}

// Expects decoding `bytes` to fail with an error mentioning `text` and the model's file.
void expect_refused(const std::string& bytes, const std::string& text,
                    ErrorKind kind = ErrorKind::BadInput) {
  expect_error_mentioning([&] { decode(bytes); }, text, kind);
  expect_error_mentioning([&] { decode(bytes); }, "m.onnx: main/ImageDecoder", kind);
}

std::string le(uint32_t v, int bytes) {
  std::string s;
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

// A BMP with a 40-byte info header; `extra` (palette or channel masks) follows it.
std::string bmp(int32_t width, int32_t height, int bits, const std::string& rows,
                const std::string& extra = "", uint32_t compression = 0, uint32_t colors = 0) {
  const std::string info = le(40, 4) + le(static_cast<uint32_t>(width), 4) +
                           le(static_cast<uint32_t>(height), 4) + le(1, 2) + le(bits, 2) +
                           le(compression, 4) + le(static_cast<uint32_t>(rows.size()), 4) +
                           le(2835, 4) + le(2835, 4) + le(colors, 4) + le(0, 4);
  const uint32_t offset = 14 + 40 + static_cast<uint32_t>(extra.size());
  return "BM" + le(offset + static_cast<uint32_t>(rows.size()), 4) + le(0, 4) + le(offset, 4) +
         info + extra + rows;
}

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += static_cast<char>(v);
  return s;
}

// Top row red, green; bottom row blue, white. Stored bottom-up as B, G, R, rows padded to 4.
const std::string kBmp2x2 = bmp(2, 2, 24,
                                bytes({255, 0, 0, 255, 255, 255, 0, 0}) +  // blue, white
                                    bytes({0, 0, 255, 0, 255, 0, 0, 0}));  // red, green

TEST(ImageDecoder, Bmp24BitInEachPixelFormat) {
  Tensor rgb = decode(kBmp2x2);
  EXPECT_EQ(rgb.shape().vec(), (test::Dims64{2, 2, 3}));
  EXPECT_EQ(pixels(rgb), (std::vector<int>{255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255}));
  EXPECT_EQ(pixels(decode(kBmp2x2, "BGR")),
            (std::vector<int>{0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255}));
  // 0.299 * 255 = 76.2, 0.587 * 255 = 149.7, 0.114 * 255 = 29.1.
  Tensor grey = decode(kBmp2x2, "Grayscale");
  EXPECT_EQ(grey.shape().vec(), (test::Dims64{2, 2, 1}));
  EXPECT_EQ(pixels(grey), (std::vector<int>{76, 150, 29, 255}));
}

TEST(ImageDecoder, BmpPalettesTopDownAndMasks) {
  // 8 bits, top-down (negative height), palette (10,20,30) and (200,100,50) as B, G, R, 0.
  const std::string palette = bytes({30, 20, 10, 0, 50, 100, 200, 0});
  EXPECT_EQ(pixels(decode(bmp(3, -1, 8, bytes({1, 0, 1, 0}), palette, 0, 2))),
            (std::vector<int>{200, 100, 50, 10, 20, 30, 200, 100, 50}));
  // 1 bit: 10 pixels 1010000011, black and white.
  const std::string bw = bytes({0, 0, 0, 0, 255, 255, 255, 0});
  Tensor bits = decode(bmp(10, 1, 1, bytes({0b10100000, 0b11000000, 0, 0}), bw), "Grayscale");
  EXPECT_EQ(pixels(bits), (std::vector<int>{255, 0, 255, 0, 0, 0, 0, 0, 255, 255}));
  // 16 bits without masks is 5-5-5: 0x7c1f is R 31, G 0, B 31.
  EXPECT_EQ(pixels(decode(bmp(1, 1, 16, bytes({0x1f, 0x7c, 0, 0})))),
            (std::vector<int>{255, 0, 255}));
  // BI_BITFIELDS 5-6-5: 0x0821 is R 1 of 31, G 1 of 63, B 1 of 31: 255/31 = 8.2, 255/63 = 4.0.
  const std::string masks = le(0xf800, 4) + le(0x07e0, 4) + le(0x001f, 4);
  EXPECT_EQ(pixels(decode(bmp(2, 1, 16, bytes({0x21, 0x08, 0xe0, 0x07}), masks, 3))),
            (std::vector<int>{8, 4, 8, 0, 255, 0}));
}

TEST(ImageDecoder, PnmKinds) {
  EXPECT_EQ(pixels(decode("P6\n2 1\n255\n" + bytes({1, 2, 3, 250, 251, 252}))),
            (std::vector<int>{1, 2, 3, 250, 251, 252}));
  // Maximum value 15: 7 * 255 / 15 = 119. Comments anywhere in the header.
  Tensor grey = decode("P5 # two\n2 # one\n1 15\n" + bytes({15, 7}), "Grayscale");
  EXPECT_EQ(grey.shape().vec(), (test::Dims64{1, 2, 1}));
  EXPECT_EQ(pixels(grey), (std::vector<int>{255, 119}));
  EXPECT_EQ(pixels(decode("P5 2 1 15\n" + bytes({15, 7}))),
            (std::vector<int>{255, 255, 255, 119, 119, 119}));
  // Text samples of 16 bits: 32768 * 255 / 65535 = 127.5, rounded up.
  EXPECT_EQ(pixels(decode("P3\n# c\n1 1\n65535\n65535 0 32768\n")),
            (std::vector<int>{255, 0, 128}));
  // Binary samples over 255 are two bytes, big-endian: 0x0200 = 512, 512 * 255 / 1023 = 127.6.
  EXPECT_EQ(pixels(decode("P5 2 1 1023\n" + bytes({3, 255, 2, 0}), "Grayscale")),
            (std::vector<int>{255, 128}));
  // Bitmaps: 1 is black; the text form needs no spaces between pixels.
  EXPECT_EQ(pixels(decode("P1\n3 1\n1 01\n", "Grayscale")), (std::vector<int>{0, 255, 0}));
  EXPECT_EQ(pixels(decode("P4\n3 1\n" + bytes({0b10100000}), "Grayscale")),
            (std::vector<int>{0, 255, 0}));
}

TEST(ImageDecoder, PngKinds) {
  Tensor grey = decode(fixture("grey_2x2.png"), "Grayscale");
  EXPECT_EQ(grey.shape().vec(), (test::Dims64{2, 2, 1}));
  EXPECT_EQ(pixels(grey), (std::vector<int>{0, 64, 128, 255}));
  EXPECT_EQ(pixels(decode(fixture("grey_2x2.png"), "BGR")),
            (std::vector<int>{0, 0, 0, 64, 64, 64, 128, 128, 128, 255, 255, 255}));
  EXPECT_EQ(pixels(decode(fixture("palette_3x1.png"))),
            (std::vector<int>{200, 100, 50, 10, 20, 30, 200, 100, 50}));
  // 16 bits cut to their high byte, alpha dropped.
  EXPECT_EQ(pixels(decode(fixture("rgba16_1x2.png"))),
            (std::vector<int>{0x12, 0xab, 0xff, 0x00, 0x01, 0x80}));
  // Adam7 interlacing: pixel (x, y) is (10x, 10y, 100).
  std::vector<int> expected;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) expected.insert(expected.end(), {10 * x, 10 * y, 100});
  EXPECT_EQ(pixels(decode(fixture("interlaced_3x3.png"))), expected);
}

TEST(ImageDecoder, TiffKinds) {
  EXPECT_EQ(pixels(decode(fixture("rgb_2x1.tif"))), (std::vector<int>{255, 0, 0, 0, 0, 255}));
  EXPECT_EQ(pixels(decode(fixture("rgb_2x1.tif"), "Grayscale")), (std::vector<int>{76, 29}));
  Tensor grey = decode(fixture("grey_1x2.tif"), "Grayscale");
  EXPECT_EQ(grey.shape().vec(), (test::Dims64{2, 1, 1}));
  EXPECT_EQ(pixels(grey), (std::vector<int>{10, 250}));
}

TEST(ImageDecoder, LossyFormatsDecodeToTheirSize) {
  // Their pixels are checked against the official tests' expected outputs (conformance).
  for (const char* name : {"official.jpg", "official.webp", "official.jp2"})
    EXPECT_EQ(decode(fixture(name)).shape().vec(), (test::Dims64{32, 32, 3})) << name;
}

TEST(ImageDecoder, RefusesImagesCutShort) {
  expect_refused(kBmp2x2.substr(0, kBmp2x2.size() - 4), "BMP image: the pixels are cut short");
  expect_refused(kBmp2x2.substr(0, 20), "BMP image: the header is cut short");
  expect_refused("P6\n2 1\n255\n" + bytes({1, 2, 3, 4}), "PNM image: the pixels are cut short");
  expect_refused("P3 1 1 255 1 2", "PNM image: the sample is missing");
  const std::string png = fixture("grey_2x2.png");
  expect_refused(png.substr(0, png.size() - 20), "PNG image:");
  const std::string tiff = fixture("rgb_2x1.tif");
  expect_refused(tiff.substr(0, 12), "TIFF image:");
  for (const char* name : {"official.jpg", "official.webp", "official.jp2"}) {
    const std::string whole = fixture(name);
    expect_refused(whole.substr(0, whole.size() * 2 / 3), "image:");
  }
  expect_refused(fixture("official.jpg").substr(0, 700), "JPEG image:");
  expect_refused(fixture("official.webp").substr(0, 400), "WebP image:");
  expect_refused(fixture("official.jp2").substr(0, 1500), "JPEG 2000 image:");
}

// The official image with its declared size replaced, at `at`, by `patch`.
std::string patched(const std::string& name, size_t at, const std::string& patch) {
  std::string b = fixture(name);
  return b.replace(at, patch.size(), patch);
}

std::string be(uint32_t v, int n) {
  std::string s;
  for (int i = n - 1; i >= 0; --i) s += static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

TEST(ImageDecoder, RefusesHugeDeclaredSizes) {
  const std::string cap = "over the cap of 65535 a side and 67108864 in all";
  expect_refused(bmp(100000, 1, 24, std::string(300000, '\0')),
                 "BMP image: declares 100000 x 1 pixels, " + cap);
  expect_refused("P5 60000 60000 255\n" + bytes({1}), "PNM image: declares 60000 x 60000");
  expect_refused("P5 99999999999999999999 1 255\n", "PNM image: the width is over 65536");
  expect_refused(fixture("huge_65535.png"), "PNG image: declares 65535 x 65535");
  expect_refused(fixture("huge_60000.tif"), "TIFF image: declares 60000 x 60000");
  // JPEG: SOF0's height and width, big-endian, 5 and 7 bytes past its marker.
  const std::string jpeg = fixture("official.jpg");
  const size_t sof = jpeg.find("\xff\xc0");
  ASSERT_NE(sof, std::string::npos);
  expect_refused(patched("official.jpg", sof + 5, be(60000, 2) + be(60000, 2)),
                 "JPEG image: declares 60000 x 60000");
  // WebP (VP8): 14-bit width and height at bytes 26 and 28.
  expect_refused(patched("official.webp", 26, le(0x3fff, 2) + le(0x3fff, 2)),
                 "WebP image: declares 16383 x 16383");
  // JPEG 2000: the SIZ marker's image and tile sizes (Xsiz, Ysiz 6 bytes past it, XTsiz and
  // YTsiz 22), and the JP2 header box's, which must agree.
  const std::string jp2 = fixture("official.jp2");
  const size_t siz = jp2.find("\xff\x51");
  const size_t ihdr = jp2.find("ihdr");
  ASSERT_NE(siz, std::string::npos);
  std::string huge_jp2 = jp2;
  huge_jp2.replace(siz + 6, 8, be(60000, 4) + be(60000, 4));
  huge_jp2.replace(siz + 22, 8, be(60000, 4) + be(60000, 4));
  huge_jp2.replace(ihdr + 4, 8, be(60000, 4) + be(60000, 4));
  expect_refused(huge_jp2, "JPEG 2000 image: declares 60000 x 60000");
  expect_refused(bmp(0, 1, 24, ""), "BMP image: declares an empty size 0 x 1");
}

TEST(ImageDecoder, RefusesTheWrongContentForTheSignature) {
  const std::string jpeg = fixture("official.jpg");
  expect_refused("\x89PNG\r\n\x1a\n" + jpeg, "PNG image:");
  expect_refused(jpeg.substr(0, 3) + fixture("grey_2x2.png"), "JPEG image:");
  expect_refused("BM" + jpeg, "BMP image:");
  expect_refused("II*" + std::string(1, '\0') + jpeg, "TIFF image:");
  expect_refused("RIFF" + le(100, 4) + "WEBP" + jpeg, "WebP image:");
  expect_refused(std::string("\xff\x4f\xff\x51", 4) + jpeg, "JPEG 2000 image:");
  expect_refused("P7\n1 1\n", "not an image of a known format");
  expect_refused("hello", "not an image of a known format");
  expect_refused(std::string("RIFF\0\0\0", 7), "not an image of a known format");  // fuzzer
  expect_refused("", "the 0 bytes are not an image");
  expect_refused(bmp(1, 1, 24, bytes({1, 2, 3, 0}), "", 1), "BMP image: compression 1",
                 ErrorKind::Unsupported);
  expect_refused(bmp(1, 1, 7, bytes({1, 2, 3, 0})), "BMP image: has 7 bits a pixel");
  expect_refused("P5 1 1 0\n" + bytes({0}), "PNM image: the maximum value is 0");
  expect_refused("P5 1 1 15\n" + bytes({16}), "PNM image: a sample is over the maximum value 15");
}

TEST(ImageDecoder, ASessionMemoryCapCountsTheDecodedImage) {
  test::GraphBuilder g;
  const std::string png = fixture("zeros_2048x1024.png");
  g.input("x", ElemType::UInt8, {static_cast<int64_t>(png.size())});
  g.output_untyped("y");
  g.node("ImageDecoder", {"x"}, {"y"}, "decode");
  const std::string path = test::save_model(test::make_model(g, 20, 10),
                                            test::scratch_dir("image_decoder_cap"), "m.onnx");
  SessionOptions options;
  options.memory_limit_bytes = size_t{1} << 20;  // the RGB image takes 6 MiB
  Session capped(Model::load(path), options);
  expect_error_mentioning(
      [&] {
        capped.run({{"x", Value(bytes_tensor(png))}});
      },
      "ImageDecoder \"decode\"", ErrorKind::Stopped);
  Session free(Model::load(path));
  EXPECT_EQ(free.run({{"x", Value(bytes_tensor(png))}})[0].second.tensor().shape().vec(),
            (test::Dims64{1024, 2048, 3}));
}

TEST(ImageDecoder, CheckRefusesUnknownPixelFormatsAndInfersChannels) {
  test::expect_invalid_model([] { decode(kBmp2x2, "YUV"); });
  test::GraphBuilder g;
  g.input("x", ElemType::UInt8, {10});
  g.output_untyped("y");
  g.node("ImageDecoder", {"x"}, {"y"});
  test::set_string(g.graph_node_last(), "pixel_format", "Grayscale");
  const std::string path = test::save_model(test::make_model(g, 20, 10),
                                            test::scratch_dir("image_decoder_infer"), "m.onnx");
  Session session(Model::load(path));
  EXPECT_EQ(session.outputs()[0].type, "tensor(uint8)[?,?,1]");
}

}  // namespace
}  // namespace bough
