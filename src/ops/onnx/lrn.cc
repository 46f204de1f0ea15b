// LRN: local response normalization across channels of X (N x C x D1..Dn):
// y = x / (bias + alpha / size * sum of x² over channels [c - (size-1)/2, c +
// ceil((size-1)/2)])^beta. float16/bfloat16 go through float.
#include <cmath>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace lrn_op {

struct Params {
  double alpha, beta, bias;
  int64_t size;
};

template <typename T>
Tensor lrn(const Tensor& x, const Params& a, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), C = x.dim(1);
  const int64_t plane = N * C > 0 ? x.numel() / (N * C) : 0;
  const int64_t before = (a.size - 1) / 2, after = a.size - 1 - before;
  Tensor y(x.type(), x.shape());
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  const double k = a.alpha / static_cast<double>(a.size);
  const int64_t grain = util::grain_for(plane * a.size * kernels::kElementWork);
  pool.parallel_for(N * C, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo; p < hi; ++p) {
      const int64_t n = p / C, c = p % C;
      const int64_t c0 = std::max<int64_t>(0, c - before), c1 = std::min<int64_t>(C - 1, c + after);
      for (int64_t i = 0; i < plane; ++i) {
        double sq = 0;
        for (int64_t j = c0; j <= c1; ++j) {
          const double v = static_cast<double>(src[(n * C + j) * plane + i]);
          sq += v * v;
        }
        const double v = static_cast<double>(src[p * plane + i]);
        dst[p * plane + i] = static_cast<T>(v / std::pow(a.bias + k * sq, a.beta));
      }
    }
  });
  return y;
}

class LRN : public Kernel {
 public:
  explicit LRN(Params a) : a_(a) {}

  void run(KernelIO& io) override { io.set_output(0, compute(io.input(0), io.pool())); }

 private:
  Tensor compute(const Tensor& x, util::ThreadPool& pool) const {
    if (x.rank() < 2) fail(ErrorKind::BadInput, "", "LRN needs an input of rank 2 or more");
    return kernels::through_float(
        [&](const Tensor& x) {
          return kernels::visit_float(x.type(), "LRN", [&](auto tag) {
            using T = typename decltype(tag)::type;
            return lrn<T>(x, a_, pool);
          });
        },
        x);
  }

  Params a_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Params a{ctx.attr_float("alpha", 1e-4f), ctx.attr_float("beta", 0.75f),
           ctx.attr_float("bias", 1.0f), ctx.attr_int("size", 0)};
  if (a.size < 1) ctx.invalid("LRN needs a positive size");
  return std::make_unique<LRN>(a);
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; alpha: float = 9.999999747378752e-05, beta: float = 0.75, bias: "
     "float = 1.0, size: int"},
    {13,
     "X: T -> Y: T; T = floats bfloat16; alpha: float = 9.999999747378752e-05, beta: float = "
     "0.75, bias: float = 1.0, size: int"}};

}  // namespace lrn_op
}  // namespace

OpDef def_LRN() {
  using namespace lrn_op;
  return def_from_rows("", "LRN", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
