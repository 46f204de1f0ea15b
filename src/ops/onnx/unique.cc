// Unique: the distinct elements of the flattened input, or the distinct slices along
// `axis` when given. Outputs: Y, the int64 index of each one's first occurrence, the
// int64 position in Y of every input element (slice), and the int64 count of each one.
// sorted=1 (default) orders Y ascending (slices lexicographically); sorted=0 keeps the
// order of first occurrence.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {
namespace unique_op {
// A total order with NaN above everything and equal to itself.
template <typename T>
bool elem_less(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// Slices grouped by equality: group g starts at row first[g] and has count[g] rows; row r
// belongs to group of_row[r].
struct Groups {
  std::vector<int64_t> first, count, of_row;
};

// The groups of the rows of `key` ([n, width], row-major), in sorted order.
template <typename T>
Groups group_rows(const T* key, int64_t n, int64_t width) {
  auto less = [&](int64_t a, int64_t b) {
    return std::lexicographical_compare(key + a * width, key + (a + 1) * width, key + b * width,
                                        key + (b + 1) * width, elem_less<T>);
  };
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), less);
  Groups g;
  g.of_row.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) {  // stable: the group's first row comes first
      g.first.push_back(order[i]);
      g.count.push_back(0);
    }
    ++g.count.back();
    g.of_row[static_cast<size_t>(order[i])] = static_cast<int64_t>(g.first.size()) - 1;
  }
  return g;
}

Groups group_slices(const Tensor& x, int64_t n, int64_t width) {
  if (x.type() == ElemType::String) return group_rows(x.strings(), n, width);
  const Tensor key =
      is_float_type(x.type()) && x.type() != ElemType::Float && x.type() != ElemType::Double
          ? kernels::to_float(x)
          : x;
  return kernels::visit_numeric_bool(key.type(), "Unique", [&](auto tag) {
    using T = typename decltype(tag)::type;
    return group_rows(key.data<T>(), n, width);
  });
}

// Renumbers the groups in the order of their first rows.
void order_by_first_row(Groups& g) {
  std::vector<int64_t> perm(g.first.size()), rank(g.first.size());
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    return g.first[static_cast<size_t>(a)] < g.first[static_cast<size_t>(b)];
  });
  Groups out;
  for (size_t i = 0; i < perm.size(); ++i) {
    const auto p = static_cast<size_t>(perm[i]);
    rank[p] = static_cast<int64_t>(i);
    out.first.push_back(g.first[p]);
    out.count.push_back(g.count[p]);
  }
  for (int64_t& r : g.of_row) r = rank[static_cast<size_t>(r)];
  g.first = std::move(out.first);
  g.count = std::move(out.count);
}

class Unique : public Kernel {
 public:
  Unique(bool has_axis, int64_t axis, bool sorted)
      : has_axis_(has_axis), axis_(axis), sorted_(sorted) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    if (is_sub_byte(in.type())) fail(ErrorKind::Unsupported, "", "Unique on sub-byte types");
    int64_t axis = 0;
    Tensor x = in.reshaped(Dims{in.numel()});
    if (has_axis_) {
      axis = kernels::normalize_axis(axis_, static_cast<int64_t>(in.rank()));
      x = kernels::move_axis(in, axis, 0);
    }
    const int64_t n = x.dim(0);
    const int64_t width = n == 0 ? 0 : x.numel() / n;
    Groups groups = group_slices(x, n, width);
    if (!sorted_) order_by_first_row(groups);
    const auto u = static_cast<int64_t>(groups.first.size());
    auto as_tensor = [](const std::vector<int64_t>& v) {
      return Tensor::from_vector(ElemType::Int64, Dims{static_cast<int64_t>(v.size())}, v);
    };
    Dims shape = x.shape();
    shape[0] = u;
    Tensor y(x.type(), shape);
    kernels::visit_storage(x.type(), "Unique", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(y);
      for (int64_t g = 0; g < u; ++g)
        std::copy_n(src + groups.first[static_cast<size_t>(g)] * width, width, dst + g * width);
    });
    io.set_output(0, has_axis_ ? kernels::move_axis(y, 0, axis) : y);
    io.set_output(1, as_tensor(groups.first));
    io.set_output(2, as_tensor(groups.of_row));
    io.set_output(3, as_tensor(groups.count));
  }

 private:
  bool has_axis_;
  int64_t axis_;
  bool sorted_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Unique>(ctx.has_attr("axis"), ctx.attr_int("axis", 0),
                                  ctx.attr_int("sorted", 1) != 0);
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  ir::Shape y = ir::Shape::of({ir::Dim::unknown()});
  ir::Dim inverse =
      s.rank_known ? layout_infer::dim_product(s.dims, 0, s.dims.size()) : ir::Dim::unknown();
  if (ctx.has_attr("axis")) {
    if (s.rank_known) {
      const auto axis = static_cast<size_t>(normalize_axis(
          ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(s.dims.size()), "axis"));
      y = s;
      y.dims[axis] = ir::Dim::unknown();
      inverse = s.dims[axis];
    } else {
      y = ir::Shape::unknown_rank();
      inverse = ir::Dim::unknown();
    }
  }
  ctx.set_output_tensor(0, elem, std::move(y));
  const ir::Shape unknown_count = ir::Shape::of({ir::Dim::unknown()});
  if (ctx.num_outputs() > 1) ctx.set_output_tensor(1, ElemType::Int64, unknown_count);
  if (ctx.num_outputs() > 2) ctx.set_output_tensor(2, ElemType::Int64, ir::Shape::of({inverse}));
  if (ctx.num_outputs() > 3) ctx.set_output_tensor(3, ElemType::Int64, unknown_count);
}

constexpr SignatureText kRows[] = {
    {11,
     "X: T -> Y: T, indices?: tensor(int64), inverse_indices?: tensor(int64), counts?: "
     "tensor(int64); T = all; axis: int?, sorted: int = 1"}};

}  // namespace unique_op
}  // namespace

OpDef def_Unique() {
  using namespace unique_op;
  return def_from_rows("", "Unique", make, infer, kRows);
}

}  // namespace bough::ops
