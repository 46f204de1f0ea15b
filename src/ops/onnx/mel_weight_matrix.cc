// MelWeightMatrix: the [dft_length/2 + 1, num_mel_bins] matrix that maps a one-sided
// spectrum to mel bands: num_mel_bins + 2 points evenly spaced on the mel scale
// (mel = 2595·log10(1 + hz/700)) between lower_edge_hertz and upper_edge_hertz, each
// mapped to the spectrum bin floor((dft_length + 1)·hz / sample_rate); band i is a
// triangle rising from point i to point i+1 and falling to point i+2.
// As the reference does, the mel edges are computed in float and the rest in double.
#include <cmath>

#include "kernels/convert.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mel_weight_matrix_op {

class MelWeightMatrix : public Kernel {
 public:
  explicit MelWeightMatrix(ElemType out) : out_(out) {}

  void run(KernelIO& io) override {
    const int64_t mel_bins = kernels::read_int(io.input(0), "num_mel_bins");
    const int64_t dft_length = kernels::read_int(io.input(1), "dft_length");
    const int64_t sample_rate = kernels::read_int(io.input(2), "sample_rate");
    const float lower = scalar(io.input(3), "lower_edge_hertz");
    const float upper = scalar(io.input(4), "upper_edge_hertz");
    if (mel_bins < 1 || dft_length < 1 || sample_rate < 1)
      fail(ErrorKind::BadInput, "",
           "MelWeightMatrix needs positive num_mel_bins, dft_length and sample_rate");
    const int64_t spectrum_bins = dft_length / 2 + 1;

    const float low_mel = 2595.0f * std::log10(1.0f + lower / 700.0f);
    const float high_mel = 2595.0f * std::log10(1.0f + upper / 700.0f);
    // The output first: its allocation refuses sizes past the session's limits before the
    // edges' vector of mel_bins + 2 entries is made.
    Tensor w = Tensor::zeros(ElemType::Double, Dims{spectrum_bins, mel_bins});
    const float mel_step = (high_mel - low_mel) / static_cast<float>(mel_bins + 2);
    std::vector<int64_t> points(static_cast<size_t>(mel_bins + 2));
    for (int64_t i = 0; i < mel_bins + 2; ++i) {
      const double mel = static_cast<double>(i) * mel_step + low_mel;
      const double hz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
      const double bin =
          std::floor((static_cast<double>(dft_length) + 1) * hz / static_cast<double>(sample_rate));
      // Checked as a double: NaN and huge edges (from huge hertz) never reach the conversion.
      if (!(bin >= 0 && bin < static_cast<double>(spectrum_bins)))
        fail(ErrorKind::BadInput, "",
             "MelWeightMatrix edges fall outside the " + std::to_string(spectrum_bins) +
                 " spectrum bins");
      points[static_cast<size_t>(i)] = static_cast<int64_t>(bin);
    }

    double* m = w.data<double>();
    for (int64_t i = 0; i < mel_bins; ++i) {
      const int64_t lo = points[static_cast<size_t>(i)], mid = points[static_cast<size_t>(i + 1)],
                    hi = points[static_cast<size_t>(i + 2)];
      if (mid == lo) {
        m[mid * mel_bins + i] = 1;
      } else {
        for (int64_t j = lo; j <= mid; ++j)
          m[j * mel_bins + i] = static_cast<double>(j - lo) / static_cast<double>(mid - lo);
      }
      for (int64_t j = mid; j < hi; ++j)
        m[j * mel_bins + i] = static_cast<double>(hi - j) / static_cast<double>(hi - mid);
    }
    io.set_output(0, kernels::cast(w, out_));
  }

 private:
  static float scalar(const Tensor& t, const char* what) {
    if (t.numel() != 1 || !is_float_type(t.type()))
      fail(ErrorKind::BadInput, "", std::string(what) + " must be a float scalar");
    return static_cast<float>(t.get_double(0));
  }

  ElemType out_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t code = ctx.attr_int("output_datatype", 1);
  if (!is_valid_elem_code(static_cast<int>(code)) ||
      code == static_cast<int64_t>(ElemType::String) || is_sub_byte(static_cast<ElemType>(code)))
    ctx.invalid("unsupported output_datatype " + std::to_string(code));
  return std::make_unique<MelWeightMatrix>(static_cast<ElemType>(code));
}

// output (dft_length / 2 + 1, num_mel_bins) in output_datatype.
void infer(InferContext& ctx) {
  ir::Dim rows, cols;
  if (auto v = int_values(ctx, 0); v && v->size() == 1) cols = ir::Dim::known((*v)[0]);
  if (auto v = int_values(ctx, 1); v && v->size() == 1) rows = ir::Dim::known((*v)[0] / 2 + 1);
  const int64_t code = ctx.attr_int("output_datatype", 1);
  if (!is_valid_elem_code(static_cast<int>(code)))
    ctx.invalid("unsupported output_datatype " + std::to_string(code));
  ctx.set_output_tensor(0, static_cast<ElemType>(code), ir::Shape::of({rows, cols}));
}

constexpr SignatureText kRows[] = {
    {17,
     "num_mel_bins: T1, dft_length: T1, sample_rate: T1, lower_edge_hertz: "
     "T2, upper_edge_hertz: T2 -> output: T3; T1 = int32 int64, T2 = floats "
     "bfloat16, T3 = numeric bfloat16; output_datatype: int = 1"}};

}  // namespace mel_weight_matrix_op
}  // namespace

OpDef def_MelWeightMatrix() {
  using namespace mel_weight_matrix_op;
  return def_from_rows("", "MelWeightMatrix", make, infer, kRows);
}

}  // namespace bough::ops
