// org.openvinotoolkit PriorBoxClustered-1: OpenVINO's PriorBoxClustered-1 as its ONNX
// frontend reads the node (prior_grid.h): for each cell of the feature map's [H, W] grid,
// one box per (width, height) pair centred at ((w + offset) * step_w, (h + offset) * step_h),
// as [xmin, ymin, xmax, ymax] normalized to the image [IH, IW]. A step_w (step_h) of 0 takes
// `step`; when both are still 0 they are the image's size over the grid's. Computed as
// OpenVINO's reference does (src/core/reference/include/openvino/reference/
// prior_box_clustered.hpp). The frontend's clip defaults to 0 (the IR's to true).
#include <algorithm>
#include <string>

#include "ir/storage.h"
#include "ops/def_from_rows.h"
#include "ops/openvino/prior_grid.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace prior_box_clustered_op {

struct Attrs {
  std::vector<float> widths, heights, variance;
  bool clip = false;
  float step = 0, step_w = 0, step_h = 0, offset = 0;
};

Attrs read_attrs(const NodeView& ctx) {
  Attrs a;
  a.widths = openvino::float_list(ctx, "width");
  a.heights = openvino::float_list(ctx, "height");
  if (a.widths.size() != a.heights.size())
    ctx.invalid("width has " + std::to_string(a.widths.size()) + " values and height " +
                std::to_string(a.heights.size()));
  a.variance = openvino::checked_variance(ctx);
  a.clip = ctx.attr_int("clip", 0) != 0;
  a.step = ctx.attr_float("step", 0);
  a.step_w = ctx.attr_float("step_w", 0);
  a.step_h = ctx.attr_float("step_h", 0);
  a.offset = ctx.attr_float("offset", 0);
  return a;
}

class PriorBoxClustered : public Kernel {
 public:
  explicit PriorBoxClustered(Attrs a) : a_(std::move(a)) {}

  void run(KernelIO& io) override {
    const openvino::PriorGrid g = openvino::prior_grid(io.input(0), io.input(1));
    const auto per_cell = static_cast<int64_t>(a_.widths.size());
    const int64_t count = g.h * g.w * per_cell;
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, ElemType::Float, {1, 2, 4 * count});
    float* dst = out.data<float>();
    float step_w = a_.step_w == 0 ? a_.step : a_.step_w;
    float step_h = a_.step_h == 0 ? a_.step : a_.step_h;
    if (step_w == 0 && step_h == 0) {
      step_w = static_cast<float>(g.image_w) / static_cast<float>(g.w);
      step_h = static_cast<float>(g.image_h) / static_cast<float>(g.h);
    }
    const auto iw = static_cast<float>(g.image_w);
    const auto ih = static_cast<float>(g.image_h);
    int64_t k = 0;
    for (int64_t h = 0; h < g.h; ++h)
      for (int64_t w = 0; w < g.w; ++w) {
        const float cx = (static_cast<float>(w) + a_.offset) * step_w;
        const float cy = (static_cast<float>(h) + a_.offset) * step_h;
        for (int64_t s = 0; s < per_cell; ++s) {
          const float bw = a_.widths[static_cast<size_t>(s)] / 2.0f;
          const float bh = a_.heights[static_cast<size_t>(s)] / 2.0f;
          float v[4] = {(cx - bw) / iw, (cy - bh) / ih, (cx + bw) / iw, (cy + bh) / ih};
          for (float x : v) dst[k++] = a_.clip ? std::min(std::max(x, 0.0f), 1.0f) : x;
        }
      }
    openvino::write_variances(dst + 4 * count, count, a_.variance);
  }

 private:
  Attrs a_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<PriorBoxClustered>(read_attrs(ctx));
}

void infer(InferContext& ctx) {
  openvino::infer_priors(ctx, static_cast<int64_t>(read_attrs(ctx).widths.size()));
}

constexpr SignatureText kRows[] = {
    {1,
     "feature_map: T1, image: T2 -> priors: tensor(float); T1 = all_ir13, T2 = all_ir13; "
     "width: floats, height: floats, clip: int = 0, variance: floats?, step: float = 0.0, "
     "step_w: float = 0.0, step_h: float = 0.0, offset: float = 0.0"}};

}  // namespace prior_box_clustered_op
}  // namespace

OpDef def_OvPriorBoxClustered() {
  using namespace prior_box_clustered_op;
  return def_from_rows("org.openvinotoolkit", "PriorBoxClustered", make, infer, kRows);
}

}  // namespace bough::ops
