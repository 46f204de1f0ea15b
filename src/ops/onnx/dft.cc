// DFT: the discrete Fourier transform along one axis of a real ([..., 1]) or complex
// ([..., 2], real and imaginary parts) signal; the last dimension is never the axis.
// dft_length pads with zeros or truncates the signal. onesided keeps the n/2+1 bins of a
// real signal's spectrum; inverse divides by n; inverse with onesided (irfft) reads a
// half spectrum (default length 2*(bins-1)) and returns a real signal.
// Opset 17 takes the axis as an attribute (default 1), opset 20 as input 2 (default -2,
// negative counting from the back of the input's dimensions).
#include <algorithm>
#include <complex>

#include "kernels/convert.h"
#include "kernels/fft.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/optional_input.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace dft_op {

using cd = std::complex<double>;

class Dft : public Kernel {
 public:
  Dft(bool axis_input, int64_t axis, bool inverse, bool onesided)
      : axis_input_(axis_input), axis_(axis), inverse_(inverse), onesided_(onesided) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (!is_float_type(x.type()) || elem_bits(x.type()) < 16)
      fail(ErrorKind::Unsupported, "",
           "DFT does not support element type " + std::string(elem_name(x.type())));
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank < 2 || (x.dim(rank - 1) != 1 && x.dim(rank - 1) != 2))
      fail(ErrorKind::BadInput, "",
           "DFT input must end in a dimension of 1 (real) or 2 (complex), got shape " +
               shape_string(x.shape()));
    int64_t axis = axis_;
    if (axis_input_ && given_input(io, 2)) axis = kernels::read_int(io.input(2), "axis");
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank - 2)
      fail(ErrorKind::BadInput, "",
           "DFT axis is out of range for shape " + shape_string(x.shape()));
    const bool irfft = inverse_ && onesided_;
    const int64_t n_in = x.dim(static_cast<size_t>(axis));
    int64_t n = irfft ? 2 * (n_in - 1) : n_in;
    if (given_input(io, 1)) n = kernels::read_int(io.input(1), "dft_length");
    if (n < 1)
      fail(ErrorKind::BadInput, "", "dft_length must be positive, got " + std::to_string(n));

    const int64_t n_out = inverse_ || !onesided_ ? n : n / 2 + 1;
    Dims shape = x.shape();
    shape[static_cast<size_t>(axis)] = n_out;
    shape[static_cast<size_t>(rank - 1)] = irfft ? 1 : 2;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<size_t>(d));
    for (int64_t d = axis + 1; d < rank - 1; ++d) inner *= x.dim(static_cast<size_t>(d));

    const Tensor xd = kernels::cast(x, ElemType::Double);
    Tensor out(ElemType::Double, shape);
    const kernels::FftPlan plan(n, inverse_);
    const double* src = xd.data<double>();
    double* dst = out.data<double>();
    const int64_t c_in = x.dim(static_cast<size_t>(rank - 1)), c_out = irfft ? 1 : 2;
    const double scale = inverse_ ? 1.0 / static_cast<double>(n) : 1.0;
    auto lines = [&](int64_t s, int64_t e) {
      std::vector<cd> buf(static_cast<size_t>(n)), scratch;
      for (int64_t line = s; line < e; ++line) {
        const int64_t o = line / inner, i = line % inner;
        auto in_at = [&](int64_t t) {
          const double* p = src + ((o * n_in + t) * inner + i) * c_in;
          return cd(p[0], c_in == 2 ? p[1] : 0.0);
        };
        std::fill(buf.begin(), buf.end(), cd(0, 0));
        if (irfft) {
          for (int64_t k = 0; k <= n / 2 && k < n_in; ++k) buf[static_cast<size_t>(k)] = in_at(k);
          for (int64_t k = n / 2 + 1; k < n; ++k)
            buf[static_cast<size_t>(k)] = std::conj(buf[static_cast<size_t>(n - k)]);
        } else {
          for (int64_t t = 0; t < std::min(n, n_in); ++t) buf[static_cast<size_t>(t)] = in_at(t);
        }
        plan.run(buf.data(), buf.data(), scratch);
        for (int64_t k = 0; k < n_out; ++k) {
          double* q = dst + ((o * n_out + k) * inner + i) * c_out;
          const cd v = buf[static_cast<size_t>(k)] * scale;
          q[0] = v.real();
          if (c_out == 2) q[1] = v.imag();
        }
      }
    };
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(1, n));
    io.pool().parallel_for(outer * inner, grain, lines);
    io.set_output(0, kernels::cast(out, x.type()));
  }

 private:
  bool axis_input_;
  int64_t axis_;
  bool inverse_, onesided_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool axis_input = ctx.since >= 20;
  const int64_t axis = axis_input ? -2 : ctx.attr_int("axis", 1);
  return std::make_unique<Dft>(axis_input, axis, ctx.attr_int("inverse", 0) != 0,
                               ctx.attr_int("onesided", 0) != 0);
}

// As run computes it: the axis dim becomes dft_length (or the input's, or 2 * (bins - 1)
// for an inverse onesided transform), n / 2 + 1 when onesided forward; the last dim 2, or 1
// for an inverse onesided transform.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (!x.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), x);
  const auto rank = static_cast<int64_t>(x.dims.size());
  if (rank < 2) ctx.invalid("the input needs rank 2 or more, not " + std::to_string(rank));
  const ir::Dim& last = x.dims.back();
  if (last.is_known() && last.value != 1 && last.value != 2)
    ctx.invalid("the input's last dim must be 1 (real) or 2 (complex), not " +
                std::to_string(last.value));
  const bool inverse = ctx.attr_int("inverse", 0) != 0;
  const bool onesided = ctx.attr_int("onesided", 0) != 0;
  const bool irfft = inverse && onesided;
  ir::Shape y = x;
  y.dims.back() = ir::Dim::known(irfft ? 1 : 2);
  std::optional<int64_t> axis = ctx.since >= 20 ? int64_t{-2} : ctx.attr_int("axis", 1);
  if (ctx.since >= 20 && ctx.has_input(2)) {
    auto v = int_values(ctx, 2);
    axis = v && v->size() == 1 ? std::optional<int64_t>((*v)[0]) : std::nullopt;
  }
  std::optional<int64_t> length;  // dft_length when given and known
  if (ctx.has_input(1)) {
    auto v = int_values(ctx, 1);
    if (!v || v->size() != 1) {
      length.reset();
    } else {
      length = (*v)[0];
      if (*length < 1) ctx.invalid("dft_length must be positive, not " + std::to_string(*length));
    }
  }
  // The dim the transform gives along an axis of dim `in`.
  auto along = [&](const ir::Dim& in) -> ir::Dim {
    std::optional<int64_t> n;
    if (ctx.has_input(1))
      n = length;
    else if (in.is_known())
      n = irfft ? 2 * (in.value - 1) : in.value;
    if (n) return ir::Dim::known(inverse || !onesided ? *n : *n / 2 + 1);
    if (!ctx.has_input(1) && !onesided) return in;
    return ir::Dim::unknown();
  };
  if (!axis) {
    // Any of the dims but the last may be the axis: a dim stays known where the transform
    // would keep it.
    for (int64_t d = 0; d + 1 < rank; ++d) {
      ir::Dim& yd = y.dims[static_cast<size_t>(d)];
      if (!(along(yd) == yd)) yd = ir::Dim::unknown();
    }
    return ctx.set_output_tensor(0, ctx.input_elem(0), y);
  }
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a > rank - 2)
    ctx.invalid("axis " + std::to_string(*axis) + " is out of range for rank " +
                std::to_string(rank));
  y.dims[static_cast<size_t>(a)] = along(x.dims[static_cast<size_t>(a)]);
  ctx.set_output_tensor(0, ctx.input_elem(0), y);
}

constexpr SignatureText kRows[] = {
    {17,
     "input: T1, dft_length?: T2 -> output: T1; T1 = floats bfloat16, T2 = "
     "int32 int64; axis: int = 1, inverse: int = 0, onesided: int = 0"},
    {20,
     "input: T1, dft_length?: T2, axis?: tensor(int64) -> output: T1; T1 = floats bfloat16, T2 "
     "= int32 int64; inverse: int = 0, onesided: int = 0"}};

}  // namespace dft_op
}  // namespace

OpDef def_DFT() {
  using namespace dft_op;
  return def_from_rows("", "DFT", make, infer, kRows);
}

}  // namespace bough::ops
