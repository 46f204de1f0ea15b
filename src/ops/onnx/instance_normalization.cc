// InstanceNormalization: y = scale[c] * (x - mean) / sqrt(var + epsilon) + B[c], with mean
// and (biased) variance taken over the spatial elements of each (batch, channel) plane of X
// (N x C x D1..Dn). float16/bfloat16 go through float.
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

template <typename T>
Tensor instance_norm(const Tensor& x, const Tensor& scale, const Tensor& bias, double epsilon,
                     util::ThreadPool& pool) {
  const int64_t C = x.dim(1), planes = x.dim(0) * C;
  const int64_t size = planes > 0 ? x.numel() / planes : 0;
  const T* src = x.data<T>();
  const kernels::Moments m = kernels::pool_moments(src, planes, size, epsilon, pool);
  Tensor y(x.type(), x.shape());
  T* dst = y.data<T>();
  const T* s = scale.data<T>();
  const T* b = bias.data<T>();
  const int64_t grain = std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, size));
  pool.parallel_for(planes, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo; p < hi; ++p) {
      const T k = static_cast<T>(m.inv_std[p] * static_cast<double>(s[p % C]));
      const T mean = static_cast<T>(m.mean[p]), shift = b[p % C];
      for (int64_t i = p * size; i < (p + 1) * size; ++i) dst[i] = (src[i] - mean) * k + shift;
    }
  });
  return y;
}

class InstanceNormalization : public Kernel {
 public:
  explicit InstanceNormalization(double epsilon) : epsilon_(epsilon) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor& bias = io.input(2);
    if (x.rank() < 2) bad("InstanceNormalization needs an input of rank 2 or more");
    if (scale.numel() != x.dim(1) || bias.numel() != x.dim(1))
      bad("InstanceNormalization's scale and B must hold " + std::to_string(x.dim(1)) + " values");
    if (scale.type() != x.type() || bias.type() != x.type())
      bad("InstanceNormalization inputs have different element types");
    io.set_output(0, compute(x, scale, bias, io.pool()));
  }

 private:
  Tensor compute(const Tensor& x, const Tensor& scale, const Tensor& bias,
                 util::ThreadPool& pool) const {
    return kernels::through_float(
        [&](const Tensor& x, const Tensor& scale, const Tensor& bias) {
          return kernels::visit_float(x.type(), "InstanceNormalization", [&](auto tag) {
            using T = typename decltype(tag)::type;
            return instance_norm<T>(x, scale, bias, epsilon_, pool);
          });
        },
        x, scale, bias);
  }

  double epsilon_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<InstanceNormalization>(ctx.attr_float("epsilon", 1e-5f));
}

}  // namespace

const OpDef& def_InstanceNormalization() {
  static const OpDef def{"", "InstanceNormalization", {1, 6, 22}, 3, 3, 1, 1, make};
  return def;
}

}  // namespace bough::ops
