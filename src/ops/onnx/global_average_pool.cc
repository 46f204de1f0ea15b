// GlobalAveragePool: the mean of each (batch, channel) plane of X (N x C x D1..Dn), float
// planes summed in vectors (kernels::sum_f32). float16/bfloat16 go through float.
#include <type_traits>

#include "kernels/pool_global.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace global_average_pool_op {

Tensor compute(const Tensor& x, util::ThreadPool& pool) {
  return kernels::global_pool_float(x, pool, "GlobalAveragePool", [](const auto* p, int64_t n) {
    using T = std::remove_cvref_t<decltype(*p)>;
    T sum = 0;
    if constexpr (std::is_same_v<T, float>) {
      sum = kernels::sum_f32(p, n);
    } else {
      for (int64_t i = 0; i < n; ++i) sum += p[i];
    }
    return n > 0 ? sum / static_cast<T>(n) : T(0);
  });
}

constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats"},
                                   {22, "X: T -> Y: T; T = floats bfloat16"}};

}  // namespace global_average_pool_op
}  // namespace

OpDef def_GlobalAveragePool() {
  using namespace global_average_pool_op;
  return def_from_rows("", "GlobalAveragePool", make_unary<compute>, infer_global_pool, kRows);
}

}  // namespace bough::ops
