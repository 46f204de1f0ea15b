#include "ops/onnx/random_common.h"

#include <bit>
#include <string>
#include <vector>

#include "kernels/random.h"
#include "ops/def_from_rows.h"
#include "ops/shape_infer.h"

namespace bough::ops {

std::optional<uint64_t> random_seed(const NodeView& ctx) {
  if (!ctx.has_attr("seed")) return std::nullopt;
  return std::bit_cast<uint32_t>(ctx.attr_float("seed", 0.0f));
}

ElemType random_dtype(const NodeView& ctx, ElemType fallback) {
  if (!ctx.has_attr("dtype")) return fallback;
  const int64_t code = ctx.attr_int("dtype", 0);
  if (!is_valid_elem_code(static_cast<int>(code)))
    ctx.invalid("dtype is not an element type: " + std::to_string(code));
  return static_cast<ElemType>(code);
}

namespace {
namespace random_common_op {

// float16, float and double; bfloat16 too from version 22.
void require_float_output(const NodeView& ctx, ElemType type, const char* source) {
  const bool ok = type == ElemType::Float16 || type == ElemType::Float ||
                  type == ElemType::Double || (type == ElemType::BFloat16 && ctx.since >= 22);
  if (!ok)
    ctx.invalid(std::string(source) + " " + std::string(elem_name(type)) +
                " is not an output type of " + ctx.node.op_type + "-" + std::to_string(ctx.since) +
                " (float16, float, double" + (ctx.since >= 22 ? ", bfloat16)" : ")"));
}

// The `shape` attribute of RandomNormal / RandomUniform: required, no negative dimension.
std::vector<int64_t> shape_attr(const NodeView& ctx) {
  if (!ctx.has_attr("shape")) ctx.invalid(ctx.node.op_type + " needs the shape attribute");
  std::vector<int64_t> shape = ctx.attr_ints("shape");
  for (int64_t d : shape)
    if (d < 0) ctx.invalid("negative dimension in shape " + shape_string(shape));
  return shape;
}

// The two parameters of the distribution: mean and scale, or low and high.
std::pair<double, double> parameters(const NodeView& ctx, Distribution distribution) {
  if (distribution == Distribution::Normal)
    return {ctx.attr_float("mean", 0.0f), ctx.attr_float("scale", 1.0f)};
  const double low = ctx.attr_float("low", 0.0f), high = ctx.attr_float("high", 1.0f);
  if (!(low < high))
    ctx.invalid("low (" + std::to_string(low) + ") must be below high (" + std::to_string(high) +
                ")");
  return {low, high};
}

class RandomFill : public Kernel {
 public:
  RandomFill(Distribution distribution, std::pair<double, double> parameters, ElemType dtype,
             std::optional<std::vector<int64_t>> shape, std::optional<uint64_t> seed)
      : distribution_(distribution),
        parameters_(parameters),
        dtype_(dtype),
        shape_(std::move(shape)),
        seed_(seed) {}

  void run(KernelIO& io) override {
    ElemType type = dtype_;
    Dims shape;
    if (shape_) {
      shape = Dims(std::span<const int64_t>(*shape_));
    } else {
      const Tensor& x = io.input(0);
      shape = x.shape();
      if (type == ElemType::Undefined) type = x.type();
    }
    kernels::RandomStream stream = kernels::RandomStream::for_run(seed_);
    const auto [a, b] = parameters_;
    io.set_output(0, distribution_ == Distribution::Normal
                         ? kernels::normal_tensor(type, shape, a, b, stream)
                         : kernels::uniform_tensor(type, shape, a, b, stream));
  }

 private:
  Distribution distribution_;
  std::pair<double, double> parameters_;
  ElemType dtype_;                             // Undefined: the input's type
  std::optional<std::vector<int64_t>> shape_;  // none: the input's shape
  std::optional<uint64_t> seed_;
};

// The kernel of the four (`like` false: shape and dtype from the attributes, dtype float by
// default; true: shape from the input, dtype from the attribute or else the input's).
std::unique_ptr<Kernel> make_random_fill(const BuildContext& ctx, Distribution distribution,
                                         bool like) {
  const ElemType dtype = random_dtype(ctx, like ? ElemType::Undefined : ElemType::Float);
  if (dtype != ElemType::Undefined) require_float_output(ctx, dtype, "dtype");
  std::optional<std::vector<int64_t>> shape;
  if (!like) shape = shape_attr(ctx);
  return std::make_unique<RandomFill>(distribution, parameters(ctx, distribution), dtype,
                                      std::move(shape), random_seed(ctx));
}

// Their output type, by the same rule.
void infer_random_fill(InferContext& ctx, bool like) {
  if (!like) {
    const ElemType dtype = random_dtype(ctx, ElemType::Float);
    require_float_output(ctx, dtype, "dtype");
    const std::vector<int64_t> shape = shape_attr(ctx);
    ctx.set_output_tensor(0, dtype, known_shape(shape));
    return;
  }
  ElemType dtype = random_dtype(ctx, ElemType::Undefined);
  if (dtype != ElemType::Undefined) {
    require_float_output(ctx, dtype, "dtype");
  } else {
    dtype = ctx.input_elem(0);
    // An input of another type needs a dtype; an input of unknown type leaves the output's
    // unknown too.
    if (dtype != ElemType::Undefined) require_float_output(ctx, dtype, "without dtype, input type");
  }
  ctx.set_output_tensor(0, dtype, ctx.input_shape(0));
}

template <Distribution D, bool Like>
std::unique_ptr<Kernel> make_fill(const BuildContext& ctx) {
  return make_random_fill(ctx, D, Like);
}
template <bool Like>
void infer_fill(InferContext& ctx) {
  infer_random_fill(ctx, Like);
}

}  // namespace random_common_op
}  // namespace

OpDef random_fill_def(std::string_view name, Distribution distribution, bool like,
                      std::span<const SignatureText> rows) {
  using namespace random_common_op;
  const bool normal = distribution == Distribution::Normal;
  const KernelFactory make =
      normal
          ? (like ? make_fill<Distribution::Normal, true> : make_fill<Distribution::Normal, false>)
          : (like ? make_fill<Distribution::Uniform, true>
                  : make_fill<Distribution::Uniform, false>);
  return def_from_rows("", name, make, like ? infer_fill<true> : infer_fill<false>, rows,
                       {.nondeterministic = true});
}

}  // namespace bough::ops
