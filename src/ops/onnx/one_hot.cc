// OneHot: for indices of shape S, a tensor of shape S with `depth` inserted at `axis`
// (default -1, range [-r-1, r]) holding values[1] where the position equals the index and
// values[0] elsewhere. Negative indices count from the back; indices outside
// [-depth, depth) give a row of values[0]. Indices and depth may be any numeric type.
#include <cmath>
#include <vector>

#include "kernels/dispatch.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace one_hot_op {
// Element i of a numeric tensor as an integer; false when it is not a finite number.
bool integer_at(const Tensor& t, int64_t i, int64_t* out) {
  if (!is_float_type(t.type())) {
    *out = t.get_int(i);
    return true;
  }
  const double v = t.get_double(i);
  if (!std::isfinite(v) || std::abs(v) > 9.0e18) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

class OneHot : public Kernel {
 public:
  explicit OneHot(int64_t axis) : axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& indices = io.input(0);
    const Tensor& depth_t = io.input(1);
    const Tensor& values = io.input(2);
    if (depth_t.numel() != 1)
      fail(ErrorKind::BadInput, "",
           "depth must hold one value, got shape " + shape_string(depth_t.shape()));
    int64_t depth = 0;
    if (!integer_at(depth_t, 0, &depth) || depth < 0)
      fail(ErrorKind::BadInput, "", "depth must be a non-negative number");
    if (values.numel() != 2)
      fail(ErrorKind::BadInput, "",
           "values must hold two elements, got shape " + shape_string(values.shape()));
    if (is_sub_byte(values.type())) fail(ErrorKind::Unsupported, "", "OneHot on sub-byte types");
    const auto rank = static_cast<int64_t>(indices.rank());
    const int64_t axis = axis_ < 0 ? axis_ + rank + 1 : axis_;
    if (axis < 0 || axis > rank)
      fail(ErrorKind::BadInput, "",
           "axis " + std::to_string(axis_) + " is out of range for rank " +
               std::to_string(rank + 1));
    // Positions along the new axis, -1 for an index out of range.
    std::vector<int64_t> hot(static_cast<size_t>(indices.numel()), -1);
    for (int64_t i = 0; i < indices.numel(); ++i) {
      int64_t v = 0;
      if (!integer_at(indices, i, &v) || v < -depth || v >= depth) continue;
      hot[static_cast<size_t>(i)] = v < 0 ? v + depth : v;
    }
    Dims shape = indices.shape();
    shape.insert(static_cast<size_t>(axis), depth);
    int64_t inner = 1;
    for (int64_t d = axis; d < rank; ++d) inner *= indices.dim(static_cast<size_t>(d));
    const int64_t outer = inner == 0 ? 0 : indices.numel() / inner;
    Tensor y(values.type(), shape);
    kernels::visit_storage(values.type(), "OneHot", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T off = kernels::elements<T>(values)[0], on = kernels::elements<T>(values)[1];
      T* out = kernels::elements<T>(y);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t d = 0; d < depth; ++d)
          for (int64_t i = 0; i < inner; ++i)
            out[(o * depth + d) * inner + i] =
                hot[static_cast<size_t>(o * inner + i)] == d ? on : off;
    });
    io.set_output(0, std::move(y));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<OneHot>(ctx.attr_int("axis", -1));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(2);
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto rank = static_cast<int64_t>(s.dims.size()) + 1;
  const auto axis =
      static_cast<size_t>(normalize_axis(ctx, ctx.attr_int("axis", -1), rank, "axis"));
  ir::Dim depth = ir::Dim::unknown();
  if (auto d = layout_infer::number_values(ctx, 1)) {
    if (d->size() != 1) ctx.invalid("depth must hold one value");
    int64_t n = 0;
    if (!integer_at(*ctx.input_value(1), 0, &n)) ctx.invalid("depth is not a finite size");
    if (n < 0) ctx.invalid("depth must not be negative");
    depth = ir::Dim::known(n);
  }
  std::vector<ir::Dim> out = s.dims;
  out.insert(out.begin() + static_cast<ptrdiff_t>(axis), depth);
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {9,
     "indices: T1, depth: T2, values: T3 -> output: T3; T1 = numeric, T2 = "
     "numeric, T3 = all; axis: int = -1"},
    {11,
     "indices: T1, depth: T2, values: T3 -> output: T3; T1 = numeric, T2 = "
     "numeric, T3 = all; axis: int = -1"}};

}  // namespace one_hot_op
}  // namespace

OpDef def_OneHot() {
  using namespace one_hot_op;
  return def_from_rows("", "OneHot", make, infer, kRows);
}

}  // namespace bough::ops
