// Resize: nearest / linear / cubic resampling of X to `sizes` or by `scales` (output size
// floor(in * scale)), one dimension at a time. Opset 10 takes (X, scales) with asymmetric
// coordinates; 11+ take (X, roi, scales, sizes) and coordinate_transformation_mode; 18+ add
// `axes` (roi/scales/sizes then cover only those), keep_aspect_ratio_policy (for sizes:
// not_larger / not_smaller use one scale, the min / max, and round the sizes) and
// antialias; 19 adds half_pixel_symmetric. tf_half_pixel_for_nn (TensorFlow's nearest
// resize) is Resize-11's alone: 13 removed it.
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "kernels/layout.h"
#include "kernels/resample_repeat.h"
#include "kernels/shape_args.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace resize_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

enum class Policy { Stretch, NotLarger, NotSmaller };

// Bound on an output dimension, so sizes computed in double convert to int64 safely.
constexpr double kMaxSize = double(int64_t{1} << 40);

// Why `coord` does not exist at Resize-`since`, or "" when it does. Shared by the factory and
// `infer`, so that the check reports it too.
std::string missing_mode(const std::string& coord, int since) {
  if (coord == "tf_half_pixel_for_nn" && since != 11)
    return "coordinate_transformation_mode 'tf_half_pixel_for_nn' exists only in Resize-11 "
           "(removed in opset 13; half_pixel is its nearest replacement)";
  return "";
}

std::vector<double> read_doubles(const Tensor& t, const char* what) {
  if (!is_float_type(t.type()) || is_sub_byte(t.type()))
    bad(std::string(what) + " must be a float tensor");
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = t.get_double(static_cast<int64_t>(i));
  return v;
}

class Resize : public Kernel {
 public:
  Resize(kernels::ResampleSpec spec, bool v10, std::vector<int64_t> axes, Policy policy,
         double extrapolation)
      : spec_(spec),
        v10_(v10),
        axes_(std::move(axes)),
        policy_(policy),
        extrapolation_(extrapolation) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const int64_t rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> axes = kernels::normalize_axes(axes_, rank);
    if (axes_.empty())
      for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    const size_t n = axes.size();
    auto present = [&](size_t i) { return io.has_input(i) && io.input(i).numel() > 0; };
    std::vector<double> roi, scales(static_cast<size_t>(rank), 1.0), given_roi;
    std::vector<int64_t> out(x.shape().begin(), x.shape().end());
    if (!v10_ && present(1)) {
      given_roi = read_doubles(io.input(1), "roi");
      if (given_roi.size() != 2 * n)
        bad("roi has " + std::to_string(given_roi.size()) + " values, expected " +
            std::to_string(2 * n));
      roi.assign(2 * static_cast<size_t>(rank), 0.0);
      for (int64_t d = 0; d < rank; ++d) roi[static_cast<size_t>(rank + d)] = 1.0;
      for (size_t i = 0; i < n; ++i) {
        roi[static_cast<size_t>(axes[i])] = given_roi[i];
        roi[static_cast<size_t>(rank + axes[i])] = given_roi[n + i];
      }
    }
    const size_t scales_at = v10_ ? 1 : 2;
    if (present(scales_at) && present(3)) bad("Resize takes scales or sizes, not both");
    if (present(scales_at)) {
      const std::vector<double> s = read_doubles(io.input(scales_at), "scales");
      if (s.size() != n)
        bad("scales has " + std::to_string(s.size()) + " values, expected " + std::to_string(n));
      for (size_t i = 0; i < n; ++i) {
        if (!(s[i] > 0) || !std::isfinite(s[i])) bad("scales must be positive and finite");
        const size_t d = static_cast<size_t>(axes[i]);
        scales[d] = s[i];
        const double size = std::floor(static_cast<double>(x.dim(d)) * s[i]);
        if (size > kMaxSize) bad("Resize's output would be too large");
        out[d] = static_cast<int64_t>(size);
      }
    } else if (present(3)) {
      from_sizes(x, axes, kernels::read_ints(io.input(3), "sizes"), scales, out);
    } else {
      bad("Resize needs scales or sizes");
    }
    io.set_output(
        0, kernels::resample_with_shortcuts(x, spec_, out, scales, roi, extrapolation_, io.pool()));
  }

 private:
  void from_sizes(const Tensor& x, const std::vector<int64_t>& axes,
                  const std::vector<int64_t>& sizes, std::vector<double>& scales,
                  std::vector<int64_t>& out) const {
    if (sizes.size() != axes.size())
      bad("sizes has " + std::to_string(sizes.size()) + " values, expected " +
          std::to_string(axes.size()));
    std::optional<double> common;
    for (size_t i = 0; i < axes.size(); ++i) {
      if (sizes[i] < 0) bad("sizes must not be negative");
      const double in = static_cast<double>(x.dim(static_cast<size_t>(axes[i])));
      const double s = in > 0 ? static_cast<double>(sizes[i]) / in : 1.0;
      if (policy_ == Policy::NotLarger) common = common ? std::min(*common, s) : s;
      if (policy_ == Policy::NotSmaller) common = common ? std::max(*common, s) : s;
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      const size_t d = static_cast<size_t>(axes[i]);
      const double in = static_cast<double>(x.dim(d));
      if (common) {
        scales[d] = *common;
        if (*common * in + 0.5 > kMaxSize) bad("Resize's output would be too large");
        out[d] = static_cast<int64_t>(*common * in + 0.5);
      } else {
        scales[d] = in > 0 ? static_cast<double>(sizes[i]) / in : 1.0;
        out[d] = sizes[i];
      }
    }
  }

  kernels::ResampleSpec spec_;
  bool v10_;
  std::vector<int64_t> axes_;
  Policy policy_;
  double extrapolation_;
};

// The choices of the mode attributes; each list's last entry comes in later than the rest
// (cubic in Resize-11, half_pixel_symmetric in Resize-19).
constexpr Choice<kernels::Interp> kModes[] = {{"nearest", kernels::Interp::Nearest},
                                              {"linear", kernels::Interp::Linear},
                                              {"cubic", kernels::Interp::Cubic}};
constexpr Choice<kernels::CoordMode> kCoordModes[] = {
    {"half_pixel", kernels::CoordMode::HalfPixel},
    {"pytorch_half_pixel", kernels::CoordMode::PytorchHalfPixel},
    {"align_corners", kernels::CoordMode::AlignCorners},
    {"asymmetric", kernels::CoordMode::Asymmetric},
    {"tf_crop_and_resize", kernels::CoordMode::TfCropAndResize},
    {"tf_half_pixel_for_nn", kernels::CoordMode::TfHalfPixelForNN},
    {"half_pixel_symmetric", kernels::CoordMode::HalfPixelSymmetric}};

// `all`, without its last entry when opset `since` is before `last_since`.
template <typename E, size_t N>
std::span<const Choice<E>> choices_at(const Choice<E> (&all)[N], int since, int last_since) {
  return std::span<const Choice<E>>(all, since >= last_since ? N : N - 1);
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  kernels::ResampleSpec spec;
  spec.mode = attr_choice(ctx, "mode", "nearest", choices_at(kModes, ctx.since, 11));
  const bool v10 = ctx.since < 11;
  if (v10) {
    spec.coord = kernels::CoordMode::Asymmetric;
    spec.nearest = kernels::NearestRound::Simple;
  } else {
    const std::string coord = ctx.attr_string("coordinate_transformation_mode", "half_pixel");
    if (const std::string why = missing_mode(coord, ctx.since); !why.empty()) ctx.invalid(why);
    spec.coord = choice_of(ctx, "coordinate_transformation_mode", coord,
                           choices_at(kCoordModes, ctx.since, 19));
    spec.nearest = attr_choice<kernels::NearestRound>(
        ctx, "nearest_mode", "round_prefer_floor",
        {{"round_prefer_floor", kernels::NearestRound::PreferFloor},
         {"round_prefer_ceil", kernels::NearestRound::PreferCeil},
         {"floor", kernels::NearestRound::Floor},
         {"ceil", kernels::NearestRound::Ceil}});
    spec.cubic_a = ctx.attr_float("cubic_coeff_a", -0.75f);
    spec.exclude_outside = ctx.attr_int("exclude_outside", 0) != 0;
    spec.antialias = ctx.attr_int("antialias", 0) != 0;
  }
  const Policy policy = attr_choice<Policy>(ctx, "keep_aspect_ratio_policy", "stretch",
                                            {{"stretch", Policy::Stretch},
                                             {"not_larger", Policy::NotLarger},
                                             {"not_smaller", Policy::NotSmaller}});
  return std::make_unique<Resize>(spec, v10, ctx.attr_ints("axes"), policy,
                                  ctx.attr_float("extrapolation_value", 0.0f));
}

void infer(InferContext& ctx) {
  if (ctx.since >= 11) {
    const std::string why =
        missing_mode(ctx.attr_string("coordinate_transformation_mode", "half_pixel"), ctx.since);
    if (!why.empty()) ctx.invalid(why);
  }
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  const auto rank = static_cast<int64_t>(s->dims.size());
  const std::vector<int64_t> axes =
      layout_infer::axes_or_all(ctx, ctx.since >= 18 && ctx.has_attr("axes"), rank);
  const size_t scales_input = ctx.since >= 11 ? 2 : 1;
  const auto sizes = ctx.since >= 11 && ctx.has_input(3) ? int_values(ctx, 3) : std::nullopt;
  const auto scales =
      ctx.has_input(scales_input) ? layout_infer::number_values(ctx, scales_input) : std::nullopt;
  const std::string policy =
      ctx.since >= 18 ? ctx.attr_string("keep_aspect_ratio_policy", "stretch") : "stretch";
  std::vector<ir::Dim> out = unknown_dims(s->dims.size()).dims;
  if (sizes && !sizes->empty()) {
    if (sizes->size() != axes.size())
      ctx.invalid("sizes has " + std::to_string(sizes->size()) + " entries for " +
                  std::to_string(axes.size()) + " axes");
    out = s->dims;
    if (policy == "stretch") {
      for (size_t k = 0; k < axes.size(); ++k)
        out[static_cast<size_t>(axes[k])] = ir::Dim::known((*sizes)[k]);
    } else {
      // One scale for every axis: the smallest (not_larger) or largest (not_smaller) ratio.
      double scale = policy == "not_larger" ? 1e300 : 0;
      for (size_t k = 0; k < axes.size(); ++k) {
        const ir::Dim& d = s->dims[static_cast<size_t>(axes[k])];
        if (!d.is_known() || d.value == 0) {
          ctx.set_output_tensor(0, elem, unknown_dims(s->dims.size()));
          return;
        }
        const double r = static_cast<double>((*sizes)[k]) / static_cast<double>(d.value);
        scale = policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
      }
      for (int64_t a : axes) {
        ir::Dim& d = out[static_cast<size_t>(a)];
        d = layout_infer::computed_dim(std::nearbyint(static_cast<double>(d.value) * scale));
      }
    }
  } else if (scales && !scales->empty() &&
             ctx.attr_string("coordinate_transformation_mode", "half_pixel") !=
                 "tf_crop_and_resize") {
    out = layout_infer::scaled_dims(ctx, s->dims, *scales, axes);
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {10, "X: T, scales: tensor(float) -> Y: T; T = all; mode: string = nearest"},
    {11,
     "X: T1, roi: T2, scales: tensor(float), sizes?: tensor(int64) -> Y: T1; T1 = all, T2 = "
     "floats; coordinate_transformation_mode: string = half_pixel, cubic_coeff_a: float = "
     "-0.75, exclude_outside: int = 0, extrapolation_value: float = 0.0, mode: string = "
     "nearest, nearest_mode: string = round_prefer_floor"},
    {13,
     "X: T1, roi?: T2, scales?: tensor(float), sizes?: tensor(int64) -> Y: T1; T1 = all_ir4, T2 "
     "= floats; coordinate_transformation_mode: string = half_pixel, cubic_coeff_a: float = "
     "-0.75, exclude_outside: int = 0, extrapolation_value: float = 0.0, mode: string = "
     "nearest, nearest_mode: string = round_prefer_floor"},
    {18,
     "X: T1, roi?: T2, scales?: tensor(float), sizes?: tensor(int64) -> Y: T1; T1 = all_ir4, T2 "
     "= floats; antialias: int = 0, axes: ints?, coordinate_transformation_mode: string = "
     "half_pixel, cubic_coeff_a: float = -0.75, exclude_outside: int = 0, extrapolation_value: "
     "float = 0.0, keep_aspect_ratio_policy: string = stretch, mode: string = nearest, "
     "nearest_mode: string = round_prefer_floor"},
    {19,
     "X: T1, roi?: T2, scales?: tensor(float), sizes?: tensor(int64) -> Y: T1; T1 = all_ir4, T2 "
     "= floats; antialias: int = 0, axes: ints?, coordinate_transformation_mode: string = "
     "half_pixel, cubic_coeff_a: float = -0.75, exclude_outside: int = 0, extrapolation_value: "
     "float = 0.0, keep_aspect_ratio_policy: string = stretch, mode: string = nearest, "
     "nearest_mode: string = round_prefer_floor"}};

}  // namespace resize_op
}  // namespace

OpDef def_Resize() {
  using namespace resize_op;
  return def_from_rows("", "Resize", make, infer, kRows);
}

}  // namespace bough::ops
