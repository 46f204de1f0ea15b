// GroupNormalization: the channels of X (N x C x D1..Dn) split into num_groups groups; each
// (batch, group) is normalized by its own mean and (biased) variance, then scaled and
// shifted: y = scale * (x - mean) / sqrt(var + epsilon) + bias. scale and bias hold one value
// per group in opset 18 and one per channel from opset 21. float16/bfloat16 go through
// float.
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

template <typename T>
Tensor group_norm(const Tensor& x, const Tensor& scale, const Tensor& bias, int64_t groups,
                  bool per_channel, double epsilon, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), C = x.dim(1);
  const int64_t plane = C > 0 && N > 0 ? x.numel() / (N * C) : 0;
  const int64_t cg = C / groups, size = cg * plane;
  const T* src = x.data<T>();
  const kernels::Moments m = kernels::pool_moments(src, N * groups, size, epsilon, pool);
  Tensor y(x.type(), x.shape());
  T* dst = y.data<T>();
  const T* s = scale.data<T>();
  const T* b = bias.data<T>();
  const int64_t grain = std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(1, plane));
  pool.parallel_for(N * C, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo; p < hi; ++p) {  // p = n * C + c
      const int64_t c = p % C, g = (p / C) * groups + c / cg;
      const int64_t at = per_channel ? c : c / cg;
      const T k = static_cast<T>(m.inv_std[g] * static_cast<double>(s[at]));
      const T mean = static_cast<T>(m.mean[g]), shift = b[at];
      for (int64_t i = p * plane; i < (p + 1) * plane; ++i) dst[i] = (src[i] - mean) * k + shift;
    }
  });
  return y;
}

class GroupNormalization : public Kernel {
 public:
  GroupNormalization(int64_t groups, double epsilon, bool per_channel)
      : groups_(groups), epsilon_(epsilon), per_channel_(per_channel) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor& bias = io.input(2);
    if (x.rank() < 2) bad("GroupNormalization needs an input of rank 2 or more");
    if (x.dim(1) % groups_ != 0)
      bad(std::to_string(x.dim(1)) + " channels do not split into " + std::to_string(groups_) +
          " groups");
    const int64_t want = per_channel_ ? x.dim(1) : groups_;
    if (scale.numel() != want || bias.numel() != want)
      bad("GroupNormalization's scale and bias must hold " + std::to_string(want) + " values");
    if (scale.type() != x.type() || bias.type() != x.type())
      bad("GroupNormalization inputs have different element types");
    io.set_output(0, compute(x, scale, bias, io.pool()));
  }

 private:
  Tensor compute(const Tensor& x, const Tensor& scale, const Tensor& bias,
                 util::ThreadPool& pool) const {
    return kernels::through_float(
        [&](const Tensor& x, const Tensor& scale, const Tensor& bias) {
          return kernels::visit_float(x.type(), "GroupNormalization", [&](auto tag) {
            using T = typename decltype(tag)::type;
            return group_norm<T>(x, scale, bias, groups_, per_channel_, epsilon_, pool);
          });
        },
        x, scale, bias);
  }

  int64_t groups_;
  double epsilon_;
  bool per_channel_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t groups = ctx.attr_int("num_groups", 0);
  if (groups < 1) ctx.invalid("GroupNormalization needs a positive num_groups");
  return std::make_unique<GroupNormalization>(groups, ctx.attr_float("epsilon", 1e-5f),
                                              ctx.since >= 21);
}

}  // namespace

const OpDef& def_GroupNormalization() {
  static const OpDef def{"", "GroupNormalization", {18, 21}, 3, 3, 1, 1, make};
  return def;
}

}  // namespace bough::ops
