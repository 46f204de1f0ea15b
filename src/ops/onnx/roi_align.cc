// RoiAlign: for each region of interest (x1, y1, x2, y2) in `rois`, scaled by spatial_scale,
// on image batch_indices[r] of X (N x C x H x W), an output_height x output_width grid of
// bins; each bin averages (mode avg) or takes the max of (mode max) bilinear samples on a
// sampling_ratio x sampling_ratio grid (0: ceil(bin size)). half_pixel coordinates (the
// default from opset 16) shift the region by -0.5; output_half_pixel (opset 10) does not,
// and makes regions at least 1x1. In max mode a sample is the largest of its four weighted
// corners, as ONNX Runtime computes it. float16/bfloat16 go through float.
#include <cmath>

#include "kernels/through_float.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace roi_align_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

struct Params {
  bool half_pixel, max_mode;
  int64_t out_h, out_w, sampling;
  double scale;
};

// One bilinear sample: four plane offsets and weights (all zero outside the image).
struct Sample {
  int64_t at[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

Sample bilinear(double y, double x, int64_t H, int64_t W) {
  Sample s;
  if (y < -1.0 || y > static_cast<double>(H) || x < -1.0 || x > static_cast<double>(W)) return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
  if (y0 >= H - 1) {
    y1 = y0 = H - 1;
    y = static_cast<double>(y0);
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= W - 1) {
    x1 = x0 = W - 1;
    x = static_cast<double>(x0);
  } else {
    x1 = x0 + 1;
  }
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0);
  const double hy = 1 - ly, hx = 1 - lx;
  s.at[0] = y0 * W + x0;
  s.at[1] = y0 * W + x1;
  s.at[2] = y1 * W + x0;
  s.at[3] = y1 * W + x1;
  s.w[0] = hy * hx;
  s.w[1] = hy * lx;
  s.w[2] = ly * hx;
  s.w[3] = ly * lx;
  return s;
}

template <typename T>
void align_roi(const T* plane0, int64_t C, int64_t H, int64_t W, const double* box, const Params& p,
               T* out) {
  const double offset = p.half_pixel ? 0.5 : 0.0;
  const double x0 = box[0] * p.scale - offset, y0 = box[1] * p.scale - offset;
  double rw = box[2] * p.scale - offset - x0, rh = box[3] * p.scale - offset - y0;
  if (!p.half_pixel) {
    rw = std::max(rw, 1.0);
    rh = std::max(rh, 1.0);
  }
  const double bh = rh / static_cast<double>(p.out_h), bw = rw / static_cast<double>(p.out_w);
  const int64_t gh = p.sampling > 0 ? p.sampling : static_cast<int64_t>(std::ceil(bh));
  const int64_t gw = p.sampling > 0 ? p.sampling : static_cast<int64_t>(std::ceil(bw));
  const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
  std::vector<Sample> samples;
  for (int64_t ph = 0; ph < p.out_h; ++ph)
    for (int64_t pw = 0; pw < p.out_w; ++pw) {
      samples.clear();
      for (int64_t iy = 0; iy < gh; ++iy)
        for (int64_t ix = 0; ix < gw; ++ix) {
          const double y = y0 + ph * bh + (iy + 0.5) * bh / static_cast<double>(gh);
          const double x = x0 + pw * bw + (ix + 0.5) * bw / static_cast<double>(gw);
          samples.push_back(bilinear(y, x, H, W));
        }
      for (int64_t c = 0; c < C; ++c) {
        const T* plane = plane0 + c * H * W;
        double acc = 0;
        bool first = true;
        for (const Sample& s : samples) {
          if (!p.max_mode) {
            for (int k = 0; k < 4; ++k) acc += s.w[k] * static_cast<double>(plane[s.at[k]]);
            continue;
          }
          double v = s.w[0] * static_cast<double>(plane[s.at[0]]);
          for (int k = 1; k < 4; ++k) v = std::max(v, s.w[k] * static_cast<double>(plane[s.at[k]]));
          acc = first ? v : std::max(acc, v);
          first = false;
        }
        out[(c * p.out_h + ph) * p.out_w + pw] = static_cast<T>(p.max_mode ? acc : acc / count);
      }
    }
}

class RoiAlign : public Kernel {
 public:
  explicit RoiAlign(Params p) : p_(p) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor& rois = io.input(1);
    const Tensor& idx = io.input(2);
    if (in.rank() != 4) bad("RoiAlign's X must be 4-D, got " + shape_string(in.shape()));
    if (rois.rank() != 2 || rois.dim(1) != 4) bad("RoiAlign's rois must have shape [R, 4]");
    if (idx.rank() != 1 || idx.dim(0) != rois.dim(0))
      bad("RoiAlign's batch_indices must have shape [" + std::to_string(rois.dim(0)) + "]");
    if (!is_integer_type(idx.type()) || is_sub_byte(idx.type()))
      bad("RoiAlign's batch_indices must be integers");
    if (!is_float_type(rois.type()) || is_sub_byte(rois.type()))
      bad("RoiAlign's rois must be floats");
    const int64_t R = rois.dim(0), N = in.dim(0), C = in.dim(1), H = in.dim(2), W = in.dim(3);
    std::vector<double> boxes(static_cast<size_t>(R * 4));
    std::vector<int64_t> batch(static_cast<size_t>(R));
    for (int64_t r = 0; r < R; ++r) {
      batch[r] = idx.get_int(r);
      if (batch[r] < 0 || batch[r] >= N)
        bad("RoiAlign batch index " + std::to_string(batch[r]) + " is out of range");
      for (int64_t k = 0; k < 4; ++k) boxes[r * 4 + k] = rois.get_double(r * 4 + k);
      check_box(&boxes[r * 4]);
    }
    auto align = [&](const Tensor& x) {
      const Dims shape{R, C, p_.out_h, p_.out_w};
      if (H == 0 || W == 0) return Tensor::zeros(x.type(), shape);
      Tensor y(x.type(), shape);
      kernels::visit_float(x.type(), "RoiAlign", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* src = x.data<T>();
        T* dst = y.data<T>();
        const int64_t per = C * p_.out_h * p_.out_w;
        io.pool().parallel_for(R, 1, [&](int64_t b, int64_t e) {
          for (int64_t r = b; r < e; ++r)
            align_roi(src + batch[r] * C * H * W, C, H, W, &boxes[r * 4], p_, dst + r * per);
        });
      });
      return y;
    };
    io.set_output(0, kernels::through_float(align, in));
  }

 private:
  // Rejects boxes that are not finite or would need an unreasonable number of samples.
  void check_box(const double* box) const {
    for (int k = 0; k < 4; ++k)
      if (!std::isfinite(box[k] * p_.scale)) bad("RoiAlign's rois must be finite");
    if (p_.sampling > 0) return;
    const double h = std::abs(box[3] - box[1]) * p_.scale / static_cast<double>(p_.out_h);
    const double w = std::abs(box[2] - box[0]) * p_.scale / static_cast<double>(p_.out_w);
    if ((std::ceil(h) + 1) * (std::ceil(w) + 1) > double(int64_t{1} << 24))
      bad("RoiAlign's region is too large to sample");
  }

  Params p_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Params p;
  p.half_pixel = attr_choice<bool>(ctx, "coordinate_transformation_mode",
                                   ctx.since >= 16 ? "half_pixel" : "output_half_pixel",
                                   {{"half_pixel", true}, {"output_half_pixel", false}});
  p.max_mode = attr_choice<bool>(ctx, "mode", "avg", {{"avg", false}, {"max", true}});
  p.out_h = ctx.attr_int("output_height", 1);
  p.out_w = ctx.attr_int("output_width", 1);
  p.sampling = ctx.attr_int("sampling_ratio", 0);
  p.scale = ctx.attr_float("spatial_scale", 1.0f);
  if (p.out_h < 1 || p.out_w < 1) ctx.invalid("RoiAlign's output size must be positive");
  if (p.sampling < 0) ctx.invalid("sampling_ratio must not be negative");
  return std::make_unique<RoiAlign>(p);
}

// Y (num_rois, C, output_height, output_width) in X's type.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& rois = ctx.input_shape(1);
  const ir::Shape& idx = ctx.input_shape(2);
  if (x.rank_known && x.dims.size() != 4)
    ctx.invalid("X must be 4-D, not rank " + std::to_string(x.dims.size()));
  if (rois.rank_known && rois.dims.size() != 2)
    ctx.invalid("rois must be 2-D, not rank " + std::to_string(rois.dims.size()));
  if (idx.rank_known && idx.dims.size() != 1)
    ctx.invalid("batch_indices must be 1-D, not rank " + std::to_string(idx.dims.size()));
  ir::Dim n = rois.rank_known ? rois.dims[0] : ir::Dim::unknown();
  if (idx.rank_known) n = same_dim(ctx, n, idx.dims[0], "the counts of rois and batch_indices");
  ctx.set_output_tensor(0, ctx.input_elem(0),
                        ir::Shape::of({n, x.rank_known ? x.dims[1] : ir::Dim::unknown(),
                                       ir::Dim::known(ctx.attr_int("output_height", 1)),
                                       ir::Dim::known(ctx.attr_int("output_width", 1))}));
}

constexpr SignatureText kRows[] = {
    {10,
     "X: T1, rois: T1, batch_indices: T2 -> Y: T1; T1 = floats, T2 = int64; mode: string = avg, "
     "output_height: int = 1, output_width: int = 1, sampling_ratio: int = 0, spatial_scale: "
     "float = 1.0"},
    {16,
     "X: T1, rois: T1, batch_indices: T2 -> Y: T1; T1 = floats, T2 = int64; "
     "coordinate_transformation_mode: string = half_pixel, mode: string = avg, output_height: "
     "int = 1, output_width: int = 1, sampling_ratio: int = 0, spatial_scale: float = 1.0"},
    {22,
     "X: T1, rois: T1, batch_indices: T2 -> Y: T1; T1 = floats bfloat16, T2 = int64; "
     "coordinate_transformation_mode: string = half_pixel, mode: string = avg, output_height: "
     "int = 1, output_width: int = 1, sampling_ratio: int = 0, spatial_scale: float = 1.0"}};

}  // namespace roi_align_op
}  // namespace

OpDef def_RoiAlign() {
  using namespace roi_align_op;
  return def_from_rows("", "RoiAlign", make, infer, kRows);
}

}  // namespace bough::ops
