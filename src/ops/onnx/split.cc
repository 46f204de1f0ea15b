// Split: cuts the input along `axis` into the outputs. Sizes come from `split` (an
// attribute before opset 13 — or opset 1's optional second input —, an input from 13), or
// from num_outputs (opset 18: chunks of ceil(d/n), the last smaller), or else equal parts.
// Parts that are contiguous in the input (nothing before the axis) are views (strings are
// copied).
#include <algorithm>
#include <numeric>
#include <optional>

#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace split_op {

// Views need byte-aligned elements; strings are copied too, since kernels that read
// elements through Tensor::data<std::string>() (binary_map) ignore a view's string offset.
bool viewable(ElemType t) { return !is_sub_byte(t) && t != ElemType::String; }

std::vector<int64_t> equal_parts(int64_t dim, size_t outputs, bool last_smaller) {
  const auto n = static_cast<int64_t>(outputs);
  if (!last_smaller && dim % n != 0)
    fail(ErrorKind::BadInput, "",
         "a dimension of " + std::to_string(dim) + " does not split into " + std::to_string(n) +
             " equal parts");
  const int64_t chunk = (dim + n - 1) / n;
  std::vector<int64_t> sizes;
  int64_t rest = dim;
  for (int64_t i = 0; i < n; ++i) {
    sizes.push_back(std::min(chunk, rest));
    rest -= sizes.back();
  }
  return sizes;
}

class Split : public Kernel {
 public:
  Split(int64_t axis, std::optional<std::vector<int64_t>> split, bool uneven)
      : axis_(axis), split_(std::move(split)), uneven_(uneven) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, static_cast<int64_t>(x.rank())));
    const int64_t dim = x.dim(axis);
    std::vector<int64_t> sizes;
    if (io.has_input(1))
      sizes = kernels::read_whole_numbers(io.input(1), "split");  // Split-1: of X's type
    else if (split_)
      sizes = *split_;
    else
      sizes = equal_parts(dim, io.num_outputs(), uneven_);
    if (sizes.size() != io.num_outputs())
      fail(ErrorKind::BadInput, "",
           "split has " + std::to_string(sizes.size()) + " sizes for " +
               std::to_string(io.num_outputs()) + " outputs");
    for (int64_t s : sizes)
      if (s < 0) fail(ErrorKind::BadInput, "", "split sizes cannot be negative");
    if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != dim)
      fail(ErrorKind::BadInput, "",
           "split sizes do not add up to the dimension of " + std::to_string(dim));
    int64_t outer = 1;
    for (size_t d = 0; d < axis; ++d) outer *= x.dim(d);
    const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      Dims shape = x.shape();
      shape[axis] = sizes[i];
      const int64_t base = offset * in_strides[axis];
      offset += sizes[i];
      if (!io.has_output(i)) continue;
      if (outer == 1 && viewable(x.type())) {
        io.set_output(i, x.view(base, shape));
        continue;
      }
      Tensor out(x.type(), shape);
      kernels::strided_copy(x, {base, in_strides}, out, {0, kernels::contiguous_strides(shape)},
                            shape, &io.pool());
      io.set_output(i, std::move(out));
    }
  }

 private:
  int64_t axis_;
  std::optional<std::vector<int64_t>> split_;  // the attribute (opset < 13)
  bool uneven_;                                // num_outputs given (opset 18)
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::optional<std::vector<int64_t>> split;
  if (ctx.since < 13 && ctx.has_attr("split")) split = ctx.attr_ints("split");
  bool uneven = false;
  if (ctx.since >= 18 && ctx.has_attr("num_outputs")) {
    const int64_t n = ctx.attr_int("num_outputs", 0);
    if (n != static_cast<int64_t>(ctx.node.outputs.size()))
      ctx.invalid("num_outputs is " + std::to_string(n) + " but the node has " +
                  std::to_string(ctx.node.outputs.size()) + " outputs");
    uneven = true;
  }
  if (ctx.since >= 2 && ctx.since < 13 && ctx.node.inputs.size() > 1)
    ctx.invalid("Split takes one input before opset 13");
  return std::make_unique<Split>(ctx.attr_int("axis", 0), std::move(split), uneven);
}

void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const size_t outputs = ctx.num_outputs();
  if (!s.rank_known) {
    for (size_t o = 0; o < outputs; ++o) ctx.set_output_tensor(o, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto axis = static_cast<size_t>(
      normalize_axis(ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(s.dims.size()), "axis"));
  const ir::Dim& dim = s.dims[axis];
  std::optional<std::vector<int64_t>> sizes;
  bool given = false;
  if (ctx.since >= 13 || (ctx.since < 2 && ctx.has_input(1))) {
    given = ctx.has_input(1);
    if (given) sizes = int_values(ctx, 1);
  } else if (ctx.has_attr("split")) {
    given = true;
    sizes = ctx.attr_ints("split");
  }
  if (sizes) {
    if (sizes->size() != outputs)
      ctx.invalid("split has " + std::to_string(sizes->size()) + " entries for " +
                  std::to_string(outputs) + " outputs");
    int64_t sum = 0;
    for (int64_t v : *sizes) {
      if (v < 0) ctx.invalid("split holds a negative size");
      sum += v;
    }
    if (dim.is_known() && sum != dim.value)
      ctx.invalid("split sums to " + std::to_string(sum) + ", the axis has " +
                  std::to_string(dim.value));
  } else if (!given && dim.is_known()) {
    const auto n = static_cast<int64_t>(outputs);
    if (ctx.since >= 18 && ctx.has_attr("num_outputs")) {
      if (ctx.attr_int("num_outputs", 0) != n)
        ctx.invalid("num_outputs is " + std::to_string(ctx.attr_int("num_outputs", 0)) +
                    ", the node has " + std::to_string(n) + " outputs");
      const int64_t chunk = (dim.value + n - 1) / n;
      sizes.emplace();
      for (int64_t k = 0; k < n; ++k)
        sizes->push_back(std::clamp<int64_t>(dim.value - chunk * k, 0, chunk));
    } else {
      if (dim.value % n != 0)
        ctx.invalid("an axis of " + std::to_string(dim.value) + " cannot be split evenly into " +
                    std::to_string(n));
      sizes.emplace(outputs, dim.value / n);
    }
  }
  for (size_t o = 0; o < outputs; ++o) {
    std::vector<ir::Dim> dims = s.dims;
    if (sizes)
      dims[axis] = ir::Dim::known((*sizes)[o]);
    else if (outputs != 1 || given)
      dims[axis] = ir::Dim::unknown();
    ctx.set_output_tensor(o, elem, ir::Shape::of(std::move(dims)));
  }
}

constexpr SignatureText kRows[] = {
    {1, "input: T, split?: T -> outputs...*: T; T = floats; axis: int?, split: ints?"},
    {2, "input: T -> outputs*: T; T = all; axis: int = 0, split: ints?"},
    {11, "input: T -> outputs*: T; T = all; axis: int = 0, split: ints?"},
    {13, "input: T, split?: tensor(int64) -> outputs*: T; T = all_ir4; axis: int = 0"},
    {18,
     "input: T, split?: tensor(int64) -> outputs*: T; T = all_ir4; axis: int = 0, num_outputs: "
     "int?"}};

}  // namespace split_op
}  // namespace

OpDef def_Split() {
  using namespace split_op;
  return def_from_rows("", "Split", make, infer, kRows);
}

}  // namespace bough::ops
