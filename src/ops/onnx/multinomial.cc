// Multinomial: for each row of a [batch_size, class_size] input of unnormalized
// log-probabilities, `sample_size` class indices drawn independently with probabilities
// softmax(row); output [batch_size, sample_size] of `dtype` int32 (the default) or int64.
// Draws come from the shared random stream (seeded by `seed` when given, random_common.h).
#include <algorithm>
#include <cmath>

#include "kernels/convert.h"
#include "kernels/random.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/random_common.h"

namespace bough::ops {

namespace {
namespace multinomial_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

class Multinomial : public Kernel {
 public:
  Multinomial(ElemType dtype, int64_t sample_size, std::optional<uint64_t> seed)
      : dtype_(dtype), sample_size_(sample_size), seed_(seed) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() != 2)
      bad("Multinomial input must be [batch_size, class_size], got " + shape_string(x.shape()));
    const int64_t batch = x.dim(0), classes = x.dim(1);
    if (classes == 0 && batch > 0) bad("Multinomial needs at least one class");
    const Tensor logits = kernels::cast(x, ElemType::Double);
    kernels::RandomStream stream = kernels::RandomStream::for_run(seed_);
    Tensor y(ElemType::Int64, Dims{batch, sample_size_});  // checks the size first
    int64_t* samples = y.data<int64_t>();
    std::vector<double> cumulative(static_cast<size_t>(classes));
    for (int64_t b = 0; b < batch; ++b) {
      const double* row = logits.data<double>() + b * classes;
      const double top = *std::max_element(row, row + classes);
      if (!std::isfinite(top))
        bad("Multinomial row " + std::to_string(b) +
            " has no finite log-probability to draw from (its largest is " + std::to_string(top) +
            ")");
      // exp(x - max) keeps the largest weight at 1: no overflow, and the total is >= 1.
      double total = 0;
      for (int64_t c = 0; c < classes; ++c) {
        if (std::isnan(row[c])) bad("Multinomial row " + std::to_string(b) + " holds NaN");
        total += std::exp(row[c] - top);
        cumulative[static_cast<size_t>(c)] = total;
      }
      for (int64_t s = 0; s < sample_size_; ++s) {
        // The first class whose cumulative weight exceeds u * total; u < 1 keeps it in range,
        // and a class of weight 0 is never chosen.
        const double target = stream.uniform() * total;
        const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
        samples[b * sample_size_ + s] = std::min<int64_t>(it - cumulative.begin(), classes - 1);
      }
    }
    io.set_output(0, dtype_ == ElemType::Int64 ? y : kernels::cast(y, dtype_));
  }

 private:
  ElemType dtype_;
  int64_t sample_size_;
  std::optional<uint64_t> seed_;
};

ElemType output_dtype(const NodeView& ctx) {
  const ElemType t = random_dtype(ctx, ElemType::Int32);
  if (t != ElemType::Int32 && t != ElemType::Int64)
    ctx.invalid("dtype " + std::string(elem_name(t)) +
                " is not an output type of Multinomial (int32 or int64)");
  return t;
}

int64_t sample_size(const NodeView& ctx) {
  const int64_t n = ctx.attr_int("sample_size", 1);
  if (n < 1) ctx.invalid("sample_size must be at least 1, got " + std::to_string(n));
  return n;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Multinomial>(output_dtype(ctx), sample_size(ctx), random_seed(ctx));
}

void infer(InferContext& ctx) {
  const ir::Shape& in = ctx.input_shape(0);
  if (in.rank_known && in.dims.size() != 2)
    ctx.invalid("the input must be [batch_size, class_size], got rank " +
                std::to_string(in.dims.size()));
  const ir::Dim batch = in.rank_known ? in.dims[0] : ir::Dim::unknown();
  ctx.set_output_tensor(0, output_dtype(ctx),
                        ir::Shape::of({batch, ir::Dim::known(sample_size(ctx))}));
}

constexpr SignatureText kRows[] = {
    {7,
     "input: T1 -> output: T2; T1 = floats, T2 = int32 int64; dtype: int = 6, sample_size: int "
     "= 1, seed: float?"},
    {22,
     "input: T1 -> output: T2; T1 = floats bfloat16, T2 = int32 int64; dtype: int = 6, "
     "sample_size: int = 1, seed: float?"}};

}  // namespace multinomial_op
}  // namespace

OpDef def_Multinomial() {
  using namespace multinomial_op;
  return def_from_rows("", "Multinomial", make, infer, kRows, {.nondeterministic = true});
}

}  // namespace bough::ops
