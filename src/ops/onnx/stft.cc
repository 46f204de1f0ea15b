// STFT: the short-time Fourier transform of signals [batch, length, 1 or 2]: frames of
// frame_length samples every frame_step samples, each multiplied by the window (ones when
// absent) and transformed. Output [batch, frames, bins, 2] with frames =
// 1 + (length - frame_length) / frame_step and bins = frame_length / 2 + 1 when onesided
// (the default), else frame_length. frame_length defaults to the window's length.
#include <algorithm>
#include <complex>

#include "kernels/convert.h"
#include "kernels/fft.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/optional_input.h"
#include "ops/registry.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace stft_op {

using cd = std::complex<double>;

class Stft : public Kernel {
 public:
  explicit Stft(bool onesided) : onesided_(onesided) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (!is_float_type(x.type()) || elem_bits(x.type()) < 16)
      fail(ErrorKind::Unsupported, "",
           "STFT does not support element type " + std::string(elem_name(x.type())));
    if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2))
      fail(ErrorKind::BadInput, "",
           "STFT signal must be [batch, length, 1 or 2], got shape " + shape_string(x.shape()));
    const int64_t batch = x.dim(0), length = x.dim(1), c_in = x.dim(2);
    const int64_t step = kernels::read_int(io.input(1), "frame_step");
    Tensor window;
    if (given_input(io, 2)) {
      window = kernels::cast(io.input(2), ElemType::Double);
      if (window.rank() != 1)
        fail(ErrorKind::BadInput, "",
             "STFT window must be 1-D, got shape " + shape_string(window.shape()));
    }
    int64_t frame = window.defined() ? window.dim(0) : length;
    if (given_input(io, 3)) frame = kernels::read_int(io.input(3), "frame_length");
    if (window.defined() && window.dim(0) != frame)
      fail(ErrorKind::BadInput, "",
           "STFT window of length " + std::to_string(window.dim(0)) +
               " does not match frame_length " + std::to_string(frame));
    if (step < 1 || frame < 1 || frame > length)
      fail(ErrorKind::BadInput, "",
           "STFT needs frame_step >= 1 and 1 <= frame_length <= " + std::to_string(length));
    const int64_t frames = 1 + (length - frame) / step;
    const int64_t bins = onesided_ ? frame / 2 + 1 : frame;

    const Tensor xd = kernels::cast(x, ElemType::Double);
    Tensor out(ElemType::Double, Dims{batch, frames, bins, 2});
    const kernels::FftPlan plan(frame, false);
    const double* src = xd.data<double>();
    const double* win = window.defined() ? window.data<double>() : nullptr;
    double* dst = out.data<double>();
    auto run_frames = [&](int64_t s, int64_t e) {
      std::vector<cd> buf(static_cast<size_t>(frame)), scratch;
      for (int64_t bf = s; bf < e; ++bf) {
        const int64_t b = bf / frames, f = bf % frames;
        for (int64_t t = 0; t < frame; ++t) {
          const double* p = src + (b * length + f * step + t) * c_in;
          const double w = win ? win[t] : 1.0;
          buf[static_cast<size_t>(t)] = cd(p[0], c_in == 2 ? p[1] : 0.0) * w;
        }
        plan.run(buf.data(), buf.data(), scratch);
        double* q = dst + bf * bins * 2;
        for (int64_t k = 0; k < bins; ++k) {
          q[2 * k] = buf[static_cast<size_t>(k)].real();
          q[2 * k + 1] = buf[static_cast<size_t>(k)].imag();
        }
      }
    };
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / frame);
    io.pool().parallel_for(batch * frames, grain, run_frames);
    io.set_output(0, kernels::cast(out, x.type()));
  }

 private:
  bool onesided_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Stft>(ctx.attr_int("onesided", 1) != 0);
}

// output (batch, frames, bins, 2): frames = 1 + (length - frame_length) / frame_step,
// bins = frame_length / 2 + 1 when onesided, else frame_length; frame_length from its input,
// else the window's length, else the signal's.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (x.rank_known && x.dims.size() != 3)
    ctx.invalid("the signal must be 3-D (batch, length, 1 or 2), not rank " +
                std::to_string(x.dims.size()));
  const ir::Dim batch = x.rank_known ? x.dims[0] : ir::Dim::unknown();
  const std::optional<int64_t> length = x.rank_known ? dim_value(x.dims[1]) : std::nullopt;
  std::optional<int64_t> frame = length;
  if (ctx.has_input(2)) {
    const ir::Shape& w = ctx.input_shape(2);
    if (w.rank_known && w.dims.size() != 1)
      ctx.invalid("the window must be 1-D, not rank " + std::to_string(w.dims.size()));
    frame = w.rank_known ? dim_value(w.dims[0]) : std::nullopt;
  }
  if (ctx.has_input(3)) {
    auto v = int_values(ctx, 3);
    frame = v && v->size() == 1 ? std::optional<int64_t>((*v)[0]) : std::nullopt;
  }
  std::optional<int64_t> step;
  if (auto v = int_values(ctx, 1); v && v->size() == 1) step = (*v)[0];
  if (step && *step < 1) ctx.invalid("frame_step must be positive");
  ir::Dim frames, bins;
  if (frame) {
    if (*frame < 1 || (length && *frame > *length))
      ctx.invalid("frame_length " + std::to_string(*frame) + " does not fit the signal");
    bins = ir::Dim::known(ctx.attr_int("onesided", 1) != 0 ? *frame / 2 + 1 : *frame);
    if (length && step) frames = ir::Dim::known(1 + (*length - *frame) / *step);
  }
  ctx.set_output_tensor(0, ctx.input_elem(0),
                        ir::Shape::of({batch, frames, bins, ir::Dim::known(2)}));
}

constexpr SignatureText kRows[] = {
    {17,
     "signal: T1, frame_step: T2, window?: T1, frame_length?: T2 -> output: "
     "T1; T1 = floats bfloat16, T2 = int32 int64; onesided: int = 1"}};

}  // namespace stft_op
}  // namespace

OpDef def_STFT() {
  using namespace stft_op;
  return def_from_rows("", "STFT", make, infer, kRows);
}

}  // namespace bough::ops
