// Slice: data[starts:ends:steps] along `axes` (default all leading axes; steps default 1,
// may be negative). Negative starts/ends count from the back, then are clamped into the
// axis ([0, d] stepping forward, [-1, d-1] stepping back), so INT64_MAX/INT64_MIN mean "to
// the end". Opset 1 takes starts/ends/axes as attributes, later opsets as inputs.
// A slice that is one contiguous block is a view of the input's buffer (strings are copied).
#include <algorithm>
#include <limits>
#include <optional>

#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace slice_op {

// Views need byte-aligned elements; strings are copied too, since kernels that read
// elements through Tensor::data<std::string>() (binary_map) ignore a view's string offset.
bool viewable(ElemType t) { return !is_sub_byte(t) && t != ElemType::String; }

struct AxisRange {
  int64_t start = 0, step = 1, count = 0;
};

AxisRange clamp_range(int64_t start, int64_t end, int64_t step, int64_t dim) {
  if (step == 0) fail(ErrorKind::BadInput, "", "slice step cannot be 0");
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  AxisRange r{0, step, 0};
  if (dim == 0) return r;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
  }
  r.start = start;
  const uint64_t span =
      step > 0 ? static_cast<uint64_t>(end - start) : static_cast<uint64_t>(start - end);
  const uint64_t mag = step > 0 ? static_cast<uint64_t>(step) : 0 - static_cast<uint64_t>(step);
  if ((step > 0 && end > start) || (step < 0 && start > end))
    r.count = static_cast<int64_t>(1 + (span - 1) / mag);
  return r;
}

struct SliceArgs {
  std::vector<int64_t> starts, ends, axes, steps;
};

Tensor slice(const Tensor& x, const SliceArgs& a, util::ThreadPool& pool) {
  const auto rank = static_cast<int64_t>(x.rank());
  const size_t k = a.starts.size();
  if (a.ends.size() != k || (!a.axes.empty() && a.axes.size() != k) ||
      (!a.steps.empty() && a.steps.size() != k))
    fail(ErrorKind::BadInput, "", "starts, ends, axes and steps must have the same length");
  std::vector<int64_t> axes = a.axes;
  if (axes.empty())
    for (size_t i = 0; i < k; ++i) axes.push_back(static_cast<int64_t>(i));
  axes = kernels::normalize_axes(axes, rank);
  std::vector<AxisRange> ranges(static_cast<size_t>(rank));
  for (size_t d = 0; d < ranges.size(); ++d) ranges[d] = {0, 1, x.dim(d)};
  for (size_t i = 0; i < k; ++i) {
    const auto d = static_cast<size_t>(axes[i]);
    ranges[d] = clamp_range(a.starts[i], a.ends[i], a.steps.empty() ? 1 : a.steps[i], x.dim(d));
  }
  const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
  Dims shape;
  std::vector<int64_t> strides;
  int64_t base = 0;
  for (size_t d = 0; d < ranges.size(); ++d) {
    shape.push_back(ranges[d].count);
    strides.push_back(ranges[d].step * in_strides[d]);
    base += ranges[d].start * in_strides[d];
  }
  // One contiguous block: leading single entries, then one forward range, then whole axes.
  size_t d = 0;
  while (d < ranges.size() && ranges[d].count == 1) ++d;
  bool contiguous = d == ranges.size() || ranges[d].step == 1;
  for (size_t e = d + 1; contiguous && e < ranges.size(); ++e)
    contiguous = ranges[e].step == 1 && ranges[e].count == x.dim(e);
  if (shape.numel() == 0) return Tensor(x.type(), shape);
  if (contiguous && viewable(x.type())) return x.view(base, shape);
  Tensor out(x.type(), shape);
  const std::vector<int64_t> out_strides = kernels::contiguous_strides(shape);
  kernels::strided_copy(x, {base, strides}, out, {0, out_strides}, shape, &pool);
  return out;
}

class Slice : public Kernel {
 public:
  explicit Slice(std::optional<SliceArgs> fixed) : fixed_(std::move(fixed)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (fixed_) return io.set_output(0, slice(x, *fixed_, io.pool()));
    SliceArgs a;
    a.starts = kernels::read_ints(io.input(1), "starts");
    a.ends = kernels::read_ints(io.input(2), "ends");
    if (io.has_input(3)) a.axes = kernels::read_ints(io.input(3), "axes");
    if (io.has_input(4)) a.steps = kernels::read_ints(io.input(4), "steps");
    io.set_output(0, slice(x, a, io.pool()));
  }

 private:
  std::optional<SliceArgs> fixed_;  // opset 1: the attributes
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const size_t n_in = ctx.node.inputs.size();
  if (ctx.since >= 10) {
    if (n_in < 3) ctx.invalid("Slice needs the starts and ends inputs");
    return std::make_unique<Slice>(std::nullopt);
  }
  if (n_in != 1) ctx.invalid("Slice-1 takes one input");
  if (!ctx.has_attr("starts") || !ctx.has_attr("ends"))
    ctx.invalid("Slice-1 needs the starts and ends attributes");
  return std::make_unique<Slice>(
      SliceArgs{ctx.attr_ints("starts"), ctx.attr_ints("ends"), ctx.attr_ints("axes"), {}});
}

// The length of a slice of a dim of `n` elements (numpy's rules).
int64_t slice_length(int64_t n, int64_t start, int64_t end, int64_t step) {
  if (start < 0) start += n;
  if (end < 0) end += n;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, 0, n);
    return end > start ? (end - start + step - 1) / step : 0;
  }
  start = std::clamp<int64_t>(start, 0, n - 1);
  end = std::clamp<int64_t>(end, -1, n - 1);
  return start > end ? (start - end - step - 1) / -step : 0;
}

void infer(InferContext& ctx) {
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  const auto rank = static_cast<int64_t>(s->dims.size());
  const auto starts = layout_infer::ints_arg(ctx, "starts", 10, 1);
  const auto ends = layout_infer::ints_arg(ctx, "ends", 10, 2);
  const bool axes_given = ctx.since < 10 ? ctx.has_attr("axes") : ctx.has_input(3);
  const auto axes_arg = layout_infer::ints_arg(ctx, "axes", 10, 3);
  const bool steps_given = ctx.since >= 10 && ctx.has_input(4);
  const auto steps_arg = steps_given ? int_values(ctx, 4) : std::nullopt;
  if (!starts || !ends || (axes_given && !axes_arg) || (steps_given && !steps_arg)) {
    ctx.set_output_tensor(0, elem, unknown_dims(s->dims.size()));
    return;
  }
  const size_t n = starts->size();
  std::vector<int64_t> axes;
  if (axes_given)
    axes = *axes_arg;
  else
    for (size_t k = 0; k < n; ++k) axes.push_back(static_cast<int64_t>(k));
  const std::vector<int64_t> steps = steps_given ? *steps_arg : std::vector<int64_t>(n, 1);
  if (ends->size() != n || axes.size() != n || steps.size() != n)
    ctx.invalid("starts, ends, axes and steps differ in length");
  axes = layout_infer::normalize_axes(ctx, axes, rank, "axis");
  std::vector<ir::Dim> out = s->dims;
  for (size_t k = 0; k < n; ++k) {
    if (steps[k] == 0) ctx.invalid("a step is 0");
    ir::Dim& d = out[static_cast<size_t>(axes[k])];
    if (d.is_known())
      d = ir::Dim::known(slice_length(d.value, (*starts)[k], (*ends)[k], steps[k]));
    else if (!(steps[k] == 1 && (*starts)[k] == 0 &&
               (*ends)[k] >= std::numeric_limits<int32_t>::max()))
      d = ir::Dim::unknown();
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "data: T -> output: T; T = all; axes: ints?, ends: ints, starts: ints"},
    {10,
     "data: T, starts: Tind, ends: Tind, axes?: Tind, steps?: Tind -> output: T; T = all, Tind "
     "= int32 int64"},
    {11,
     "data: T, starts: Tind, ends: Tind, axes?: Tind, steps?: Tind -> output: T; T = all, Tind "
     "= int32 int64"},
    {13,
     "data: T, starts: Tind, ends: Tind, axes?: Tind, steps?: Tind -> output: T; T = all_ir4, "
     "Tind = int32 int64"}};

}  // namespace slice_op
}  // namespace

OpDef def_Slice() {
  using namespace slice_op;
  return def_from_rows("", "Slice", make, infer, kRows);
}

}  // namespace bough::ops
