// Reshape: the same buffer under a new shape. In the shape, -1 (at most once) is inferred
// from the element count and 0 copies the input's dimension, unless allowzero (opset 14+)
// is set, when 0 means an empty dimension. Opset 1 takes the shape as an attribute.
#include <algorithm>
#include <limits>
#include <optional>

#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace reshape_op {

[[noreturn]] void cannot(const Dims& in, std::span<const int64_t> spec, const std::string& why) {
  fail(ErrorKind::BadInput, "",
       "cannot reshape " + shape_string(in) + " to " + shape_string(spec) + ": " + why);
}

Dims target_shape(const Dims& in, std::span<const int64_t> spec, bool allowzero) {
  Dims out;
  int64_t inferred = -1, known = 1;
  bool has_zero = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == -1) {
      if (inferred >= 0) cannot(in, spec, "more than one -1");
      inferred = static_cast<int64_t>(i);
      out.push_back(1);
      continue;
    }
    if (d < -1) cannot(in, spec, "negative dimension");
    if (d == 0) {
      has_zero = true;
      if (!allowzero) {
        if (i >= in.size()) cannot(in, spec, "0 copies a dimension the input lacks");
        d = in[i];
      }
    }
    if (d != 0 && known > std::numeric_limits<int64_t>::max() / d) cannot(in, spec, "too large");
    known *= d;
    out.push_back(d);
  }
  const int64_t total = in.numel();
  if (inferred >= 0) {
    if (allowzero && has_zero) cannot(in, spec, "allowzero with both 0 and -1");
    if (known == 0 || total % known != 0) cannot(in, spec, "the element counts differ");
    out[static_cast<size_t>(inferred)] = total / known;
  } else if (known != total) {
    cannot(in, spec, "the element counts differ");
  }
  return out;
}

class Reshape : public Kernel {
 public:
  Reshape(bool allowzero, std::optional<std::vector<int64_t>> fixed)
      : allowzero_(allowzero), fixed_(std::move(fixed)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::vector<int64_t> spec = fixed_ ? *fixed_ : kernels::read_shape_arg(io.input(1), "shape");
    io.set_output(0, x.reshaped(target_shape(x.shape(), spec, allowzero_)));
  }

 private:
  bool allowzero_;
  std::optional<std::vector<int64_t>> fixed_;  // the opset-1 attribute
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool allowzero = ctx.since >= 14 && ctx.attr_int("allowzero", 0) != 0;
  if (ctx.node.inputs.size() >= 2 && ctx.node.inputs[1])
    return std::make_unique<Reshape>(allowzero, std::nullopt);
  if (ctx.since >= 5) ctx.invalid("Reshape needs the shape input");
  if (!ctx.has_attr("shape")) ctx.invalid("Reshape-1 needs the shape attribute");
  return std::make_unique<Reshape>(false, ctx.attr_ints("shape"));
}

// The dim a -1 stands for: input dims cancel against equal output dims (symbols too), and
// what remains of the input must be known, or a single symbol matching a product of 1.
ir::Dim minus_one_dim(const InferContext& ctx, const ir::Shape& in, const std::vector<ir::Dim>& out,
                      size_t skip) {
  std::vector<ir::Dim> rest = in.dims;
  int64_t out_known = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    if (k == skip) continue;
    if (out[k].is_known()) {
      out_known *= out[k].value;
      continue;
    }
    auto it = std::find(rest.begin(), rest.end(), out[k]);
    if (out[k].kind != ir::Dim::Kind::Symbol || it == rest.end()) return ir::Dim::unknown();
    rest.erase(it);
  }
  const ir::Dim product = layout_infer::dim_product(rest, 0, rest.size());
  if (product.is_known()) {
    if (out_known == 0) return ir::Dim::unknown();
    if (product.value % out_known != 0)
      ctx.fails_when_run("cannot reshape " + std::to_string(product.value) +
                         " elements into a multiple of " + std::to_string(out_known));
    return ir::Dim::known(product.value / out_known);
  }
  return out_known == 1 ? product : ir::Dim::unknown();
}

void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& in = ctx.input_shape(0);
  std::optional<std::vector<int64_t>> target =
      ctx.since < 5 ? (ctx.has_attr("shape") ? std::optional(ctx.attr_ints("shape")) : std::nullopt)
                    : int_values(ctx, 1);
  if (!target) {
    const ir::Shape& s = ctx.since < 5 ? ir::Shape::unknown_rank() : ctx.input_shape(1);
    if (s.rank_known && s.dims.size() == 1 && s.dims[0].is_known())
      ctx.set_output_tensor(0, elem, unknown_dims(static_cast<size_t>(s.dims[0].value)));
    else
      ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const bool allowzero = ctx.since >= 14 && ctx.attr_int("allowzero", 0) != 0;
  std::vector<ir::Dim> out(target->size());
  std::optional<size_t> minus_one;
  for (size_t k = 0; k < target->size(); ++k) {
    const int64_t v = (*target)[k];
    if (v == -1) {
      if (minus_one) ctx.invalid("the shape holds more than one -1");
      minus_one = k;
    } else if (v < -1) {
      ctx.invalid("the shape holds a negative dim " + std::to_string(v));
    } else if (v == 0 && !allowzero) {
      if (in.rank_known) {
        if (k >= in.dims.size())
          ctx.fails_when_run("a 0 at position " + std::to_string(k) +
                             " copies a dim the input of rank " + std::to_string(in.dims.size()) +
                             " lacks");
        out[k] = in.dims[k];
      }
    } else {
      out[k] = ir::Dim::known(v);
    }
  }
  if (minus_one) {
    if (in.rank_known) out[*minus_one] = minus_one_dim(ctx, in, out, *minus_one);
  } else if (in.rank_known) {
    const ir::Dim a = layout_infer::dim_product(in.dims, 0, in.dims.size());
    const ir::Dim b = layout_infer::dim_product(out, 0, out.size());
    if (a.is_known() && b.is_known() && a.value != b.value)
      ctx.fails_when_run("cannot reshape " + std::to_string(a.value) + " elements into " +
                         std::to_string(b.value));
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "data: T -> reshaped: T; T = floats; consumed_inputs: ints?, shape: ints?"},
    {5, "data: T, shape: tensor(int64) -> reshaped: T; T = all"},
    {13, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir4"},
    {14, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir4; allowzero: int = 0"},
    {19, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir9; allowzero: int = 0"},
    {21, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir10; allowzero: int = 0"},
    {23, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir11; allowzero: int = 0"},
    {24, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir12; allowzero: int = 0"},
    {25, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir13; allowzero: int = 0"}};

}  // namespace reshape_op
}  // namespace

OpDef def_Reshape() {
  using namespace reshape_op;
  return def_from_rows("", "Reshape", make, infer, kRows);
}

}  // namespace bough::ops
