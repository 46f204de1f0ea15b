// LpNormalization: x divided by its L1 (p=1) or L2 (p=2, default) norm along `axis`
// (default -1). A zero norm gives zeros. float16/bfloat16 go through float.
#include <cmath>

#include "kernels/layout.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/axis_split.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace lp_normalization_op {

template <typename T>
Tensor lp_normalize(const Tensor& x, int64_t axis, int64_t p, util::ThreadPool& pool) {
  const AxisSplit s = split_at_axis(x.shape(), axis, false);
  const int64_t outer = s.outer, n = s.n, inner = s.inner;

  Tensor y(x.type(), x.shape());
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  const int64_t grain = util::grain_for(n * kernels::kElementWork);
  pool.parallel_for(outer * inner, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t q = lo; q < hi; ++q) {
      const int64_t base = (q / inner) * n * inner + q % inner;
      T norm = 0;
      for (int64_t i = 0; i < n; ++i) {
        const T v = src[base + i * inner];
        norm += p == 1 ? std::abs(v) : v * v;
      }
      if (p == 2) norm = std::sqrt(norm);
      for (int64_t i = 0; i < n; ++i)
        dst[base + i * inner] = norm == T(0) ? T(0) : src[base + i * inner] / norm;
    }
  });
  return y;
}

class LpNormalization : public Kernel {
 public:
  LpNormalization(int64_t axis, int64_t p) : axis_(axis), p_(p) {}

  void run(KernelIO& io) override { io.set_output(0, compute(io.input(0), io.pool())); }

 private:
  Tensor compute(const Tensor& x, util::ThreadPool& pool) const {
    const int64_t axis = kernels::normalize_axis(axis_, static_cast<int64_t>(x.rank()));
    return kernels::through_float(
        [&](const Tensor& x) {
          return kernels::visit_float(x.type(), "LpNormalization", [&](auto tag) {
            using T = typename decltype(tag)::type;
            return lp_normalize<T>(x, axis, p_, pool);
          });
        },
        x);
  }

  int64_t axis_, p_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t p = ctx.attr_int("p", 2);
  if (p != 1 && p != 2) ctx.invalid("LpNormalization supports p = 1 or 2");
  return std::make_unique<LpNormalization>(ctx.attr_int("axis", -1), p);
}

constexpr SignatureText kRows[] = {
    {1, "input: T -> output: T; T = floats; axis: int = -1, p: int = 2"},
    {22, "input: T -> output: T; T = floats bfloat16; axis: int = -1, p: int = 2"}};

}  // namespace lp_normalization_op
}  // namespace

OpDef def_LpNormalization() {
  using namespace lp_normalization_op;
  return def_from_rows("", "LpNormalization", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
