// ImageDecoder: a 1-D uint8 tensor holding an encoded image (BMP, JPEG, JPEG 2000, PNG,
// PNM, TIFF or WebP, told by its first bytes) decoded to uint8 [height, width, channels] in
// `pixel_format`: RGB or BGR (3 channels) or Grayscale (1). A grey image made RGB repeats its
// value; a colour image made grey weighs R, G, B as ITU-R 601 does (0.299, 0.587, 0.114, in
// the 16-bit fixed point and rounding of PIL's convert("L"), which made the spec's expected
// outputs). The decoders and their caps on hostile images are in kernels/image/.
#include <string>

#include "kernels/image/decode.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace image_decoder_op {

enum class PixelFormat { RGB, BGR, Grayscale };

PixelFormat pixel_format(const NodeView& node) {
  const std::string f = node.attr_string("pixel_format", "RGB");
  if (f == "RGB") return PixelFormat::RGB;
  if (f == "BGR") return PixelFormat::BGR;
  if (f == "Grayscale") return PixelFormat::Grayscale;
  node.invalid("pixel_format \"" + f + "\" is not RGB, BGR or Grayscale");
}

// The decoded image (1 or 3 channels) in `format`.
Tensor in_format(Tensor image, PixelFormat format) {
  const bool grey = image.shape()[2] == 1;
  if (grey == (format == PixelFormat::Grayscale) && format != PixelFormat::BGR) return image;
  const int64_t height = image.shape()[0], width = image.shape()[1];
  const size_t pixels = static_cast<size_t>(height * width);
  const uint8_t* in = image.data<uint8_t>();
  if (format == PixelFormat::Grayscale) {
    Tensor out(ElemType::UInt8, Dims{height, width, 1});
    uint8_t* o = out.data<uint8_t>();
    for (size_t i = 0; i < pixels; ++i, in += 3)
      o[i] =
          static_cast<uint8_t>((in[0] * 19595u + in[1] * 38470u + in[2] * 7471u + 0x8000u) >> 16);
    return out;
  }
  Tensor out(ElemType::UInt8, Dims{height, width, 3});
  uint8_t* o = out.data<uint8_t>();
  for (size_t i = 0; i < pixels; ++i, o += 3) {
    if (grey) {
      o[0] = o[1] = o[2] = in[i];
    } else {
      o[0] = in[3 * i + 2], o[1] = in[3 * i + 1], o[2] = in[3 * i];
    }
  }
  return out;
}

class ImageDecoder : public Kernel {
 public:
  explicit ImageDecoder(PixelFormat format) : format_(format) {}

  void run(KernelIO& io) override {
    const Tensor& encoded = io.input(0);
    if (encoded.type() != ElemType::UInt8 || encoded.rank() != 1)
      fail(ErrorKind::BadInput, "", "ImageDecoder takes a 1-D uint8 tensor of encoded bytes");
    const std::string_view bytes(static_cast<const char*>(encoded.raw()), encoded.nbytes());
    io.set_output(0, in_format(kernels::image::decode(bytes), format_));
  }

 private:
  PixelFormat format_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<ImageDecoder>(pixel_format(ctx));
}

void infer(InferContext& ctx) {
  const ir::Shape& in = ctx.input_shape(0);
  if (in.rank_known && in.dims.size() != 1)
    ctx.invalid("encoded_stream must be 1-D, not of rank " + std::to_string(in.dims.size()));
  const int64_t channels = pixel_format(ctx) == PixelFormat::Grayscale ? 1 : 3;
  ctx.set_output_tensor(
      0, ElemType::UInt8,
      ir::Shape::of({ir::Dim::unknown(), ir::Dim::unknown(), ir::Dim::known(channels)}));
}

constexpr SignatureText kRows[] = {
    {20, "encoded_stream: T1 -> image: T2; T1 = uint8, T2 = uint8; pixel_format: string = RGB"}};

}  // namespace image_decoder_op
}  // namespace

OpDef def_ImageDecoder() {
  using namespace image_decoder_op;
  return def_from_rows("", "ImageDecoder", make, infer, kRows);
}

}  // namespace bough::ops
