// BatchNormalization: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel (axis 1)
// of X (N x C x D1..Dn). In inference the given mean and var are used. In training
// (training_mode from opset 14; in 7 and 9, and still from 14, when a statistics output is
// asked for; in 1 and 6 when is_test is 0, its default, test mode having Y alone) the
// batch's own mean and biased variance are used, and the running statistics come out as
// input * momentum + batch * (1 - momentum). Before opset 9, spatial=0 gives parameters per
// (channel, position) instead of per channel. float16/bfloat16 go through float.
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace batch_normalization_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// The five inputs in the compute type, parameters seen as (C x per) with per 1 (per channel)
// or the plane size (spatial=0).
struct Inputs {
  Tensor x, scale, bias, mean, var;
  int64_t N = 0, C = 0, plane = 0, per = 1;
};

// Batch mean and biased variance of each parameter slot (c, j) over the batch and, for
// per-channel parameters, the plane.
template <typename T>
void batch_stats(const Inputs& in, std::vector<double>& mean, std::vector<double>& var) {
  const int64_t slots = in.C * in.per, reps = in.plane / in.per;
  std::vector<double> sum(static_cast<size_t>(slots), 0.0), sq(static_cast<size_t>(slots), 0.0);
  const T* x = in.x.data<T>();
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t n = 0; n < in.N; ++n)
      for (int64_t c = 0; c < in.C; ++c)
        for (int64_t r = 0; r < reps; ++r)
          for (int64_t j = 0; j < in.per; ++j) {
            const size_t slot = static_cast<size_t>(c * in.per + j);
            const double v = static_cast<double>(x[(n * in.C + c) * in.plane + r * in.per + j]);
            if (pass == 0)
              sum[slot] += v;
            else
              sq[slot] += (v - mean[slot]) * (v - mean[slot]);
          }
    const double count = static_cast<double>(in.N * reps);
    for (size_t s = 0; s < sum.size(); ++s) {
      if (pass == 0) mean[s] = count > 0 ? sum[s] / count : 0.0;
      if (pass == 1) var[s] = count > 0 ? sq[s] / count : 0.0;
    }
  }
}

template <typename T>
Tensor normalize(const Inputs& in, const std::vector<double>& mean, const std::vector<double>& var,
                 double epsilon, util::ThreadPool& pool) {
  Tensor y(in.x.type(), in.x.shape());
  const int64_t slots = in.C * in.per;
  std::vector<T> k(static_cast<size_t>(slots)), shift(static_cast<size_t>(slots));
  for (int64_t s = 0; s < slots; ++s) {
    const double f = static_cast<double>(in.scale.data<T>()[s]) / std::sqrt(var[s] + epsilon);
    k[s] = static_cast<T>(f);
    shift[s] = static_cast<T>(static_cast<double>(in.bias.data<T>()[s]) - mean[s] * f);
  }
  const T* x = in.x.data<T>();
  T* dst = y.data<T>();
  const int64_t plane = in.plane, per = in.per, C = in.C;
  const int64_t grain = util::grain_for(plane * kernels::kElementWork);
  pool.parallel_for(in.N * C, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo; p < hi; ++p) {
      const int64_t c = p % C;
      for (int64_t i = 0; i < plane; ++i) {
        const int64_t s = c * per + (per == 1 ? 0 : i);
        dst[p * plane + i] = x[p * plane + i] * k[s] + shift[s];
      }
    }
  });
  return y;
}

class BatchNormalization : public Kernel {
 public:
  BatchNormalization(double epsilon, double momentum, bool training, bool by_outputs, bool spatial)
      : epsilon_(epsilon),
        momentum_(momentum),
        training_(training),
        by_outputs_(by_outputs),
        spatial_(spatial) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() < 2) bad("BatchNormalization needs an input of rank 2 or more");
    const ElemType ct = x.type() == ElemType::Double ? ElemType::Double : ElemType::Float;
    if (!is_float_type(x.type()) || is_sub_byte(x.type()))
      bad("BatchNormalization needs a float input");
    Inputs in;
    in.x = kernels::cast(x, ct);
    in.N = x.dim(0);
    in.C = x.dim(1);
    in.plane = in.N * in.C > 0 ? x.numel() / (in.N * in.C) : 1;
    Tensor* params[] = {&in.scale, &in.bias, &in.mean, &in.var};
    for (int i = 0; i < 4; ++i) {
      const Tensor& p = io.input(static_cast<size_t>(i) + 1);
      if (!is_float_type(p.type()) || is_sub_byte(p.type()))
        bad("BatchNormalization's parameters must be float tensors");
      in.per = spatial_ ? 1 : in.plane;
      if (p.numel() != in.C * in.per)
        bad("BatchNormalization's parameter " + std::to_string(i + 1) + " of shape " +
            shape_string(p.shape()) + " does not match " + std::to_string(in.C) + " channels" +
            (spatial_ ? "" : " of " + std::to_string(in.plane) + " positions (spatial = 0)"));
      *params[i] = kernels::cast(p, ct);
    }
    bool training = training_;
    for (size_t i = 1; i < 5 && by_outputs_; ++i) training = training || io.has_output(i);
    const size_t slots = static_cast<size_t>(in.C * in.per);
    std::vector<double> mean(slots), var(slots);
    kernels::visit_float(ct, "BatchNormalization", [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (size_t s = 0; s < slots; ++s) {
        mean[s] = static_cast<double>(in.mean.data<T>()[s]);
        var[s] = static_cast<double>(in.var.data<T>()[s]);
      }
      if (training) {
        std::vector<double> bmean(slots), bvar(slots);
        batch_stats<T>(in, bmean, bvar);
        set_stats(io, 1, running(mean, bmean), io.input(3));
        set_stats(io, 2, running(var, bvar), io.input(4));
        set_stats(io, 3, bmean, io.input(3));
        set_stats(io, 4, bvar, io.input(4));
        mean = bmean;
        var = bvar;
      }
      io.set_output(0, kernels::cast(normalize<T>(in, mean, var, epsilon_, io.pool()), x.type()));
    });
  }

 private:
  std::vector<double> running(const std::vector<double>& given,
                              const std::vector<double>& batch) const {
    std::vector<double> r(given.size());
    for (size_t s = 0; s < r.size(); ++s)
      r[s] = given[s] * momentum_ + batch[s] * (1.0 - momentum_);
    return r;
  }

  // Output i: `values` in the type and shape of `like`.
  static void set_stats(KernelIO& io, size_t i, const std::vector<double>& values,
                        const Tensor& like) {
    if (!io.has_output(i)) return;
    io.set_output(i,
                  kernels::cast(Tensor::from_vector<double>(ElemType::Double, like.shape(), values),
                                like.type()));
  }

  double epsilon_, momentum_;
  bool training_;
  bool by_outputs_;  // whether asking for a statistics output means training (from 7)
  bool spatial_;     // parameters per channel, else per (channel, position): before 9
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  bool training = ctx.attr_int("training_mode", 0) != 0;
  if (ctx.since < 7) {
    training = ctx.attr_int("is_test", 0) == 0;
    for (size_t i = 1; i < ctx.node.outputs.size(); ++i)
      if (!training && ctx.node.outputs[i])
        ctx.invalid("is_test = 1 asks for test mode, whose only output is Y, but output " +
                    std::to_string(i) + " is asked for");
  }
  const bool spatial = ctx.since >= 9 || ctx.attr_int("spatial", 1) != 0;
  return std::make_unique<BatchNormalization>(ctx.attr_float("epsilon", 1e-5f),
                                              ctx.attr_float("momentum", 0.9f), training,
                                              ctx.since >= 7, spatial);
}

// Y has X's type; the statistics outputs take the types of the mean and variance inputs.
void infer(InferContext& ctx) {
  ctx.set_output(0, ctx.input_type(0));
  for (size_t o = 1; o < ctx.num_outputs(); ++o)
    ctx.set_output(o, ctx.input_type(o == 2 || o == 4 ? 4 : 3));
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T, scale: T, B: T, mean: T, var: T -> Y: T, mean?: T, var?: T, saved_mean?: T, "
     "saved_var?: T; T = floats; consumed_inputs: ints, epsilon: float = 9.999999747378752e-06, "
     "is_test: int = 0, momentum: float = 0.8999999761581421, spatial: int = 1"},
    {6,
     "X: T, scale: T, B: T, mean: T, var: T -> Y: T, mean?: T, var?: T, saved_mean?: T, "
     "saved_var?: T; T = floats; epsilon: float = 9.999999747378752e-06, is_test: int = 0, "
     "momentum: float = 0.8999999761581421, spatial: int = 1"},
    {7,
     "X: T, scale: T, B: T, mean: T, var: T -> Y: T, mean?: T, var?: T, saved_mean?: T, "
     "saved_var?: T; T = floats; epsilon: float = 9.999999747378752e-06, momentum: float = "
     "0.8999999761581421, spatial: int = 1"},
    {9,
     "X: T, scale: T, B: T, mean: T, var: T -> Y: T, mean?: T, var?: T, saved_mean?: T, "
     "saved_var?: T; T = floats; epsilon: float = 9.999999747378752e-06, momentum: float = "
     "0.8999999761581421"},
    {14,
     "X: T, scale: T, B: T, input_mean: U, input_var: U -> Y: T, running_mean?: U, "
     "running_var?: U; T = floats bfloat16, U = floats bfloat16; epsilon: float = "
     "9.999999747378752e-06, momentum: float = 0.8999999761581421, training_mode: int = 0"},
    {15,
     "X: T, scale: T1, B: T1, input_mean: T2, input_var: T2 -> Y: T, running_mean?: T2, "
     "running_var?: T2; T = floats bfloat16, T1 = floats bfloat16, T2 = floats bfloat16; "
     "epsilon: float = 9.999999747378752e-06, momentum: float = 0.8999999761581421, "
     "training_mode: int = 0"}};

}  // namespace batch_normalization_op
}  // namespace

OpDef def_BatchNormalization() {
  using namespace batch_normalization_op;
  return def_from_rows("", "BatchNormalization", make, infer, kRows);
}

}  // namespace bough::ops
