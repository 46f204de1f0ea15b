// org.openvinotoolkit PriorBox-1: OpenVINO's PriorBox-8 as its ONNX frontend reads the node
// (prior_grid.h): for each cell of the feature map's [H, W] grid, boxes of min_size, of
// sqrt(min_size * max_size) and of each aspect ratio (in min, max, ratios order, or min,
// ratios, max when min_max_aspect_ratios_order is 0), plus the fixed_size / fixed_ratio /
// density boxes, as [xmin, ymin, xmax, ymax] normalized to the image [IH, IW]. Computed as
// OpenVINO's reference does (src/core/reference/include/openvino/reference/prior_box.hpp),
// including its quirks: fixed_size is truncated to an integer where the reference truncates
// it, max_size is not scaled when scale_all_sizes is 0, and the fixed boxes are clipped on
// one side each. Attributes whose boxes the reference makes in another number than
// PriorBox::number_of_priors counts (the output's size) are refused.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "ir/storage.h"
#include "ops/def_from_rows.h"
#include "ops/openvino/prior_grid.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace prior_box_op {

using openvino::float_list;

struct Attrs {
  std::vector<float> min_size, max_size, aspect_ratio, fixed_ratio, fixed_size, density, variance;
  bool flip = false, clip = false, scale_all_sizes = true, min_max_order = true;
  float step = 0, offset = 0;
};

Attrs read_attrs(const NodeView& ctx) {
  Attrs a;
  a.min_size = float_list(ctx, "min_size");
  a.max_size = float_list(ctx, "max_size");
  a.aspect_ratio = float_list(ctx, "aspect_ratio");
  a.fixed_ratio = float_list(ctx, "fixed_ratio");
  a.fixed_size = float_list(ctx, "fixed_size");
  a.density = float_list(ctx, "density");
  a.variance = openvino::checked_variance(ctx);
  a.flip = ctx.attr_int("flip", 0) != 0;
  a.clip = ctx.attr_int("clip", 0) != 0;
  a.scale_all_sizes = ctx.attr_int("scale_all_sizes", 1) != 0;
  a.min_max_order = ctx.attr_int("min_max_aspect_ratios_order", 1) != 0;
  a.step = ctx.attr_float("step", 0);
  a.offset = ctx.attr_float("offset", 0);
  for (float d : a.density)
    if (static_cast<int64_t>(d) < 1) ctx.invalid("density values must be at least 1");
  return a;
}

// The aspect ratios as the reference lists them: 1, then each ratio not yet listed (within
// 1e-6), followed by its inverse when flip is set.
std::vector<float> ratios(const Attrs& a) {
  std::vector<float> r{1.0f};
  for (float ar : a.aspect_ratio) {
    bool listed = false;
    for (float e : r) listed |= std::fabs(ar - e) < 1e-6;
    if (listed) continue;
    r.push_back(ar);
    if (a.flip) r.push_back(1.0f / ar);
  }
  return r;
}

// PriorBox::number_of_priors: the priors per cell the output is sized for.
int64_t number_of_priors(const Attrs& a) {
  std::set<float> unique{1.0f};
  for (float ar : a.aspect_ratio) {
    unique.insert(std::round(ar * 1e6f) / 1e6f);
    if (a.flip) unique.insert(std::round(1 / ar * 1e6f) / 1e6f);
  }
  const auto total = static_cast<int64_t>(unique.size());
  const auto mins = static_cast<int64_t>(a.min_size.size());
  int64_t n =
      a.scale_all_sizes ? total * mins + static_cast<int64_t>(a.max_size.size()) : total + mins - 1;
  if (!a.fixed_size.empty()) n = total * static_cast<int64_t>(a.fixed_size.size());
  for (float d : a.density) {
    const auto r = static_cast<int64_t>(d);
    n += (a.fixed_ratio.empty() ? total : static_cast<int64_t>(a.fixed_ratio.size())) * (r * r - 1);
  }
  return n;
}

// One box of a cell: its centre's shift from the cell's, its half width and height, and
// whether it is clipped on its own (the fixed boxes are).
struct CellBox {
  float dx, dy, half_w, half_h;
  bool clipped;
};

// The boxes of every cell, in the reference's order, for min sizes already scaled. Throws
// (through `ctx`) when a fixed size has no density to place its boxes by.
std::vector<CellBox> cell_boxes(const Attrs& a, const std::vector<float>& min_size,
                                const NodeView* ctx) {
  std::vector<CellBox> out;
  const std::vector<float> ars = ratios(a);
  for (size_t s = 0; s < a.fixed_size.size(); ++s) {
    const auto size = static_cast<size_t>(a.fixed_size[s]);
    // density[s] x density[s] boxes, `shift` apart, around the cell's centre.
    auto grid = [&](float half_w, float half_h) {
      if (s >= a.density.size()) {
        if (ctx) ctx->invalid("fixed_size needs a density for each size");
        return;
      }
      const auto density = static_cast<int64_t>(a.density[s]);
      const auto shift = static_cast<int64_t>(a.fixed_size[s] / static_cast<float>(density));
      for (int64_t r = 0; r < density; ++r)
        for (int64_t c = 0; c < density; ++c)
          out.push_back(
              {-static_cast<float>(size / 2) + shift / 2.f + static_cast<float>(c * shift),
               -static_cast<float>(size / 2) + shift / 2.f + static_cast<float>(r * shift), half_w,
               half_h, true});
    };
    auto ratio_grids = [&](const std::vector<float>& list, bool skip_one) {
      for (float ar : list) {
        if (skip_one && std::fabs(ar - 1.) < 1e-6) continue;
        const float root = std::sqrt(ar);
        grid(a.fixed_size[s] * 0.5f * root, a.fixed_size[s] * 0.5f / root);
      }
    };
    if (!a.fixed_ratio.empty()) {
      ratio_grids(a.fixed_ratio, false);
    } else {
      if (!a.density.empty())
        grid(static_cast<float>(size) * 0.5f, static_cast<float>(size) * 0.5f);
      ratio_grids(ars, true);
    }
  }
  for (size_t m = 0; m < min_size.size(); ++m) {
    out.push_back({0, 0, min_size[m] * 0.5f, min_size[m] * 0.5f, false});
    auto max_box = [&] {
      if (a.max_size.size() <= m) return;
      const float half = std::sqrt(min_size[m] * a.max_size[m]) * 0.5f;
      out.push_back({0, 0, half, half, false});
    };
    auto ratio_boxes = [&] {
      if (!a.scale_all_sizes && m + 1 != min_size.size()) return;
      const size_t k = a.scale_all_sizes ? m : 0;
      for (float ar : ars) {
        if (std::fabs(ar - 1.0f) < 1e-6) continue;
        const float root = std::sqrt(ar);
        out.push_back({0, 0, min_size[k] * 0.5f * root, min_size[k] * 0.5f / root, false});
      }
    };
    if (a.min_max_order) {
      max_box();
      ratio_boxes();
    } else {
      ratio_boxes();
      max_box();
    }
  }
  return out;
}

class PriorBox : public Kernel {
 public:
  PriorBox(Attrs a, int64_t per_cell) : a_(std::move(a)), per_cell_(per_cell) {}

  void run(KernelIO& io) override {
    const openvino::PriorGrid g = openvino::prior_grid(io.input(0), io.input(1));
    float step = a_.step;
    std::vector<float> min_size = a_.min_size;
    if (!a_.scale_all_sizes) {  // MXNet's PriorBox: sizes and step relative to the image
      const auto ih = static_cast<float>(g.image_h);
      step = step == -1 ? ih / static_cast<float>(g.h) : step * ih;
      for (float& s : min_size) s *= ih;
    }
    const std::vector<CellBox> boxes = cell_boxes(a_, min_size, nullptr);
    const int64_t count = g.h * g.w * per_cell_;
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, ElemType::Float, {1, 2, 4 * count});
    float* dst = out.data<float>();
    const float iwi = 1.0f / static_cast<float>(g.image_w);
    const float ihi = 1.0f / static_cast<float>(g.image_h);
    const float step_x = step == 0 ? static_cast<float>(g.image_w) / static_cast<float>(g.w) : step;
    const float step_y = step == 0 ? static_cast<float>(g.image_h) / static_cast<float>(g.h) : step;
    int64_t k = 0;
    for (int64_t h = 0; h < g.h; ++h)
      for (int64_t w = 0; w < g.w; ++w) {
        const float cx = step == 0 ? (static_cast<float>(w) + 0.5f) * step_x
                                   : (a_.offset + static_cast<float>(w)) * step;
        const float cy = step == 0 ? (static_cast<float>(h) + 0.5f) * step_y
                                   : (a_.offset + static_cast<float>(h)) * step;
        for (const CellBox& b : boxes) {
          float v[4] = {(cx + b.dx - b.half_w) * iwi, (cy + b.dy - b.half_h) * ihi,
                        (cx + b.dx + b.half_w) * iwi, (cy + b.dy + b.half_h) * ihi};
          if (b.clipped) {
            v[0] = std::max(v[0], 0.0f);
            v[1] = std::max(v[1], 0.0f);
            v[2] = std::min(v[2], 1.0f);
            v[3] = std::min(v[3], 1.0f);
          }
          for (float x : v) dst[k++] = x;
        }
      }
    if (a_.clip)
      for (int64_t i = 0; i < 4 * count; ++i) dst[i] = std::min(std::max(dst[i], 0.0f), 1.0f);
    openvino::write_variances(dst + 4 * count, count, a_.variance);
  }

 private:
  Attrs a_;
  int64_t per_cell_;
};

// The priors per cell, after checking that the reference makes as many as it counts.
int64_t checked_priors(const NodeView& ctx, const Attrs& a) {
  const int64_t counted = number_of_priors(a);
  const auto made = static_cast<int64_t>(cell_boxes(a, a.min_size, &ctx).size());
  if (made != counted)
    ctx.unsupported("these attributes make " + std::to_string(made) +
                    " priors per cell where OpenVINO sizes the output for " +
                    std::to_string(counted));
  return counted;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Attrs a = read_attrs(ctx);
  const int64_t per_cell = checked_priors(ctx, a);
  return std::make_unique<PriorBox>(std::move(a), per_cell);
}

void infer(InferContext& ctx) { openvino::infer_priors(ctx, checked_priors(ctx, read_attrs(ctx))); }

constexpr SignatureText kRows[] = {
    {1,
     "feature_map: T1, image: T2 -> priors: tensor(float); T1 = all_ir13, T2 = all_ir13; "
     "min_size: floats?, max_size: floats?, aspect_ratio: floats?, flip: int = 0, "
     "clip: int = 0, step: float = 0.0, offset: float = 0.0, variance: floats?, "
     "scale_all_sizes: int = 1, fixed_ratio: floats?, fixed_size: floats?, density: floats?, "
     "min_max_aspect_ratios_order: int = 1"}};

}  // namespace prior_box_op
}  // namespace

OpDef def_OvPriorBox() {
  using namespace prior_box_op;
  return def_from_rows("org.openvinotoolkit", "PriorBox", make, infer, kRows);
}

}  // namespace bough::ops
