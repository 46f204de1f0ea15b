// Reshape: the same buffer under a new shape. In the shape, -1 (at most once) is inferred
// from the element count and 0 copies the input's dimension, unless allowzero (opset 14+)
// is set, when 0 means an empty dimension. Opset 1 takes the shape as an attribute.
#include <limits>
#include <optional>

#include "kernels/shape_args.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {

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

}  // namespace

const OpDef& def_Reshape() {
  static const OpDef def{
      "",
      "Reshape",
      {1, 5, 13, 14, 19, 21, 23, 24, 25},
      1,
      2,
      1,
      1,
      make,
      nullptr,
      {{1, "data: T -> reshaped: T; T = floats; consumed_inputs: ints?, shape: ints?"},
       {5, "data: T, shape: tensor(int64) -> reshaped: T; T = all"},
       {13, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir4"},
       {14, "data: T, shape: tensor(int64) -> reshaped: T; T = all_ir4; allowzero: int = 0"}}};
  return def;
}

}  // namespace bough::ops
