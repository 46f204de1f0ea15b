#include "kernels/reduce_loop.h"

namespace bough::kernels {

ReducePlan plan_reduce(const Dims& shape, std::span<const int64_t> axes, bool keepdims) {
  const size_t rank = shape.size();
  std::vector<bool> is_reduced(rank, axes.empty());
  for (int64_t a : axes) is_reduced[static_cast<size_t>(a)] = true;

  ReducePlan p;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t n = shape[d];
    if (is_reduced[d]) {
      p.group *= n;
      if (keepdims) p.out_shape.push_back(1);
    } else {
      p.out_numel *= n;
      p.out_shape.push_back(n);
    }
    if (n == 1) continue;  // size-1 dimensions do not change the iteration
    if (!p.dims.empty() && p.reduced.back() == is_reduced[d]) {
      p.dims.back() *= n;
    } else {
      p.dims.push_back(n);
      p.reduced.push_back(is_reduced[d]);
    }
  }
  if (p.dims.empty()) {
    p.dims.push_back(1);
    p.reduced.push_back(false);
  }
  return p;
}

}  // namespace bough::kernels
