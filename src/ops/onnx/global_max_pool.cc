// GlobalMaxPool: the maximum of each (batch, channel) plane of X (N x C x D1..Dn).
// float16/bfloat16 go through float.
#include <limits>
#include <type_traits>

#include "kernels/pool_global.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace global_max_pool_op {

Tensor compute(const Tensor& x, util::ThreadPool& pool) {
  return kernels::global_pool_float(x, pool, "GlobalMaxPool", [](const auto* p, int64_t n) {
    using T = std::remove_cvref_t<decltype(*p)>;
    T best = -std::numeric_limits<T>::infinity();
    for (int64_t i = 0; i < n; ++i) best = i == 0 || p[i] > best ? p[i] : best;
    return best;
  });
}

constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats"},
                                   {22, "X: T -> Y: T; T = floats bfloat16"}};

}  // namespace global_max_pool_op
}  // namespace

OpDef def_GlobalMaxPool() {
  using namespace global_max_pool_op;
  return def_from_rows("", "GlobalMaxPool", make_unary<compute>, infer_global_pool, kRows);
}

}  // namespace bough::ops
