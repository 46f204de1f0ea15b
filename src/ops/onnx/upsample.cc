// Upsample (deprecated by Resize): X resized by per-dimension scales (output size
// floor(in * scale)) with asymmetric coordinates, nearest (rounding down) or linear. The
// scales are height_scale / width_scale attributes of a 4-D input in opset 1, the `scales`
// attribute in 7, and the second input from 9.
#include <cmath>

#include "kernels/resample_repeat.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace upsample_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

class Upsample : public Kernel {
 public:
  Upsample(kernels::ResampleSpec spec, std::vector<double> scales)
      : spec_(spec), scales_(std::move(scales)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::vector<double> scales = scales_;
    if (io.has_input(1)) {
      const Tensor& s = io.input(1);
      if (!is_float_type(s.type()) || is_sub_byte(s.type())) bad("scales must be a float tensor");
      scales.resize(static_cast<size_t>(s.numel()));
      for (size_t i = 0; i < scales.size(); ++i) scales[i] = s.get_double(static_cast<int64_t>(i));
    }
    if (scales.size() != x.rank())
      bad("Upsample has " + std::to_string(scales.size()) + " scales for an input of rank " +
          std::to_string(x.rank()));
    std::vector<int64_t> out(x.rank());
    for (size_t d = 0; d < x.rank(); ++d) {
      const double size = std::floor(static_cast<double>(x.dim(d)) * scales[d]);
      if (!(scales[d] > 0) || !(size < double(int64_t{1} << 40)))
        bad("Upsample's scales must be positive and keep the output size in range");
      out[d] = static_cast<int64_t>(size);
    }
    io.set_output(0, kernels::resample_with_shortcuts(x, spec_, out, scales, {}, 0.0, io.pool()));
  }

 private:
  kernels::ResampleSpec spec_;
  std::vector<double> scales_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  kernels::ResampleSpec spec;
  spec.coord = kernels::CoordMode::Asymmetric;
  spec.nearest = kernels::NearestRound::Floor;
  spec.mode = attr_choice<kernels::Interp>(ctx, "mode", "nearest",
                                           {{"nearest", kernels::Interp::Nearest},
                                            {"linear", kernels::Interp::Linear},
                                            {"bilinear", kernels::Interp::Linear}});
  std::vector<double> scales;
  if (ctx.since < 7) {
    scales = {1.0, 1.0, ctx.attr_float("height_scale", 1.0f), ctx.attr_float("width_scale", 1.0f)};
  } else if (ctx.since < 9) {
    const ir::Attribute* a = ctx.attr("scales");
    if (!a) ctx.invalid("Upsample needs the scales attribute");
    scales.assign(a->floats.begin(), a->floats.end());
  } else if (ctx.node.inputs.size() < 2 || !ctx.node.inputs[1]) {
    ctx.invalid("Upsample needs the scales input");
  }
  return std::make_unique<Upsample>(spec, std::move(scales));
}

void infer(InferContext& ctx) {
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  std::optional<std::vector<double>> scales;
  if (ctx.since < 7) {
    if (s->dims.size() != 4) ctx.invalid("Upsample-1 takes an input of rank 4");
    scales = std::vector<double>{1.0, 1.0, ctx.attr_float("height_scale", 1.0f),
                                 ctx.attr_float("width_scale", 1.0f)};
  } else if (ctx.since < 9) {
    if (const ir::Attribute* a = ctx.attr("scales"))
      scales.emplace(a->floats.begin(), a->floats.end());
  } else {
    scales = layout_infer::number_values(ctx, 1);
  }
  if (!scales) {
    ctx.set_output_tensor(0, elem, unknown_dims(s->dims.size()));
    return;
  }
  std::vector<int64_t> axes;
  for (size_t d = 0; d < s->dims.size(); ++d) axes.push_back(static_cast<int64_t>(d));
  ctx.set_output_tensor(0, elem,
                        ir::Shape::of(layout_infer::scaled_dims(ctx, s->dims, *scales, axes)));
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats int32 int64 bool; height_scale: float, mode: string = nearest, "
     "width_scale: float"},
    {7, "X: T -> Y: T; T = all; mode: string = nearest, scales: floats"},
    {9, "X: T, scales: tensor(float) -> Y: T; T = all; mode: string = nearest"},
    {10, "X: T, scales: tensor(float) -> Y: T; T = all; mode: string = nearest"}};

}  // namespace upsample_op
}  // namespace

OpDef def_Upsample() {
  using namespace upsample_op;
  return def_from_rows("", "Upsample", make, infer, kRows);
}

}  // namespace bough::ops
