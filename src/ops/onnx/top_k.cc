// TopK: the k largest (largest=1, default) or smallest elements along an axis (default -1)
// and their int64 indices, sorted; equal values keep the lower index first. k is an
// attribute in opset 1 and a 1-element int64 input from opset 10. NaN counts as the largest.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kernels/find_beyond.h"
#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/axis_split.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace top_k_op {
// A total order with NaN above everything.
template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// Whether a comes before b in the output: larger (or smaller) first, NaN as the largest.
template <typename T>
bool before(T a, T b, bool largest) {
  return largest ? less_nan_last(b, a) : less_nan_last(a, b);
}

// Up to this k, one pass keeping the best k so far beats sorting indices: most elements
// are compared only with the k-th best (beam search takes the top 4 of 8192 scores).
constexpr int64_t kScanMaxK = 16;

// The k best of col[r * inner], r < n, best first, into values/indices (stride `out`): one
// pass over the column, inserting into a sorted list of at most k. An element equal to one
// already kept goes after it, so equal values keep the lower index first. Once k are kept,
// a contiguous float column jumps with vector compares to the next value that might beat
// the k-th best.
template <typename T>
void top_k_scan(const T* col, int64_t n, int64_t inner, int64_t k, bool largest, T* values,
                int64_t* indices, int64_t out) {
  T best[kScanMaxK];
  int64_t at[kScanMaxK];
  int64_t kept = 0;
  auto offer = [&](T v, int64_t r) {
    if (kept == k && !before(v, best[k - 1], largest)) return;
    int64_t pos = kept < k ? kept++ : k - 1;
    for (; pos > 0 && before(v, best[pos - 1], largest); --pos) {
      best[pos] = best[pos - 1];
      at[pos] = at[pos - 1];
    }
    best[pos] = v;
    at[pos] = r;
  };
  int64_t r = 0;
  for (; r < n && kept < k; ++r) offer(col[r * inner], r);
  if constexpr (std::is_same_v<T, float>) {
    if (inner == 1) {
      // Stops at anything not strictly within the k-th best, NaN included; offer decides.
      while ((r += kernels::first_beyond(col + r, n - r, best[k - 1], largest)) < n) {
        offer(col[r], r);
        ++r;
      }
    }
  }
  for (; r < n; ++r) offer(col[r * inner], r);
  for (int64_t j = 0; j < k; ++j) {
    values[j * out] = best[j];
    indices[j * out] = at[j];
  }
}

template <typename T>
void top_k_block(const T* x, T* values, int64_t* indices, int64_t o0, int64_t o1,
                 const AxisSplit& s, int64_t k, bool largest) {
  const int64_t n = s.n, inner = s.inner;
  if (k == 0) return;
  if (k <= kScanMaxK) {
    for (int64_t o = o0; o < o1; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t first = o * k * inner + i;
        top_k_scan(x + o * n * inner + i, n, inner, k, largest, values + first, indices + first,
                   inner);
      }
    return;
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* col = x + o * n * inner + i;
      auto value = [&](int64_t r) { return col[r * inner]; };
      std::iota(order.begin(), order.end(), int64_t{0});
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
        const T va = value(a), vb = value(b);
        if (before(va, vb, largest)) return true;
        if (before(vb, va, largest)) return false;
        return a < b;
      });
      for (int64_t j = 0; j < k; ++j) {
        const int64_t at = (o * k + j) * inner + i;
        values[at] = value(order[static_cast<size_t>(j)]);
        indices[at] = order[static_cast<size_t>(j)];
      }
    }
  }
}

class TopK : public Kernel {
 public:
  TopK(int64_t axis, bool largest, int64_t k_attr)
      : axis_(axis), largest_(largest), k_attr_(k_attr) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    if (in.rank() == 0) fail(ErrorKind::BadInput, "", "TopK input must have rank >= 1");
    const int64_t k = k_attr_ >= 0 ? k_attr_ : kernels::read_int(io.input(1), "K");
    const int64_t rank = static_cast<int64_t>(in.rank());
    const int64_t axis = kernels::normalize_axis(axis_, rank);
    if (k < 0 || k > in.dim(axis))
      fail(ErrorKind::BadInput, "",
           "k = " + std::to_string(k) + " is out of range for an axis of " +
               std::to_string(in.dim(axis)));
    const AxisSplit s = split_at_axis(in.shape(), axis, false);
    Dims shape = in.shape();
    shape[axis] = k;
    Tensor indices(ElemType::Int64, shape);
    auto top_values = [&](const Tensor& x) {
      Tensor values(x.type(), shape);
      kernels::visit_numeric(x.type(), "TopK", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* px = x.data<T>();
        T* pv = values.data<T>();
        int64_t* pi = indices.data<int64_t>();
        io.pool().parallel_for(
            s.outer, outer_grain(s, 4 * kernels::kElementWork),
            [&](int64_t b, int64_t e) { top_k_block(px, pv, pi, b, e, s, k, largest_); });
      });
      return values;
    };
    io.set_output(0, kernels::through_float(top_values, in));
    io.set_output(1, std::move(indices));
  }

 private:
  int64_t axis_;
  bool largest_;
  int64_t k_attr_;  // -1 when k is an input
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  int64_t k_attr = -1;
  if (ctx.since < 10) {
    k_attr = ctx.attr_int("k", -1);
    if (k_attr < 0) ctx.invalid("TopK needs a non-negative k attribute");
  }
  return std::make_unique<TopK>(ctx.attr_int("axis", -1),
                                ctx.since < 11 || ctx.attr_int("largest", 1) != 0, k_attr);
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    ctx.set_output_tensor(1, ElemType::Int64, ir::Shape::unknown_rank());
    return;
  }
  const auto axis = static_cast<size_t>(
      normalize_axis(ctx, ctx.attr_int("axis", -1), static_cast<int64_t>(s.dims.size()), "axis"));
  std::optional<int64_t> k;
  if (ctx.since < 10) {
    k = ctx.attr_int("k", 0);
  } else if (auto v = int_values(ctx, 1)) {
    if (v->size() != 1) ctx.invalid("K must hold one value");
    k = (*v)[0];
  }
  std::vector<ir::Dim> dims = s.dims;
  if (k) {
    if (*k < 0) ctx.invalid("K is negative");
    if (dims[axis].is_known() && *k > dims[axis].value)
      ctx.invalid("K " + std::to_string(*k) + " exceeds the axis of " +
                  std::to_string(dims[axis].value));
    dims[axis] = ir::Dim::known(*k);
  } else {
    dims[axis] = ir::Dim::unknown();
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(dims));
  ctx.set_output_tensor(1, ElemType::Int64, ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {1, "X: T -> Values: T, Indices: I; T = floats, I = int64; axis: int = -1, k: int"},
    {10, "X: T, K: tensor(int64) -> Values: T, Indices: I; T = floats, I = int64; axis: int = -1"},
    {11,
     "X: T, K: tensor(int64) -> Values: T, Indices: I; T = numeric, I = int64; axis: int = -1, "
     "largest: int = 1, sorted: int = 1"},
    {24,
     "X: T, K: tensor(int64) -> Values: T, Indices: I; T = numeric bfloat16, I = int64; axis: "
     "int = -1, largest: int = 1, sorted: int = 1"}};

}  // namespace top_k_op
}  // namespace

OpDef def_TopK() {
  using namespace top_k_op;
  return def_from_rows("", "TopK", make, infer, kRows);
}

}  // namespace bough::ops
