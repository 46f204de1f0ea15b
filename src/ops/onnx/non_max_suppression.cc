// NonMaxSuppression: for each batch and class, greedily keeps the highest-scoring boxes
// (ties: lower index first) whose score exceeds score_threshold, dropping every box whose
// IoU with a kept one exceeds iou_threshold, up to max_output_boxes_per_class (default 0:
// none). Boxes are [y1, x1, y2, x2] corners in any order (center_point_box = 0) or
// [x_center, y_center, width, height] (1). Output: [kept, 3] rows (batch, class, box).
#include <algorithm>
#include <numeric>

#include "kernels/convert.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/optional_input.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace non_max_suppression_op {

struct Box {
  float y1, x1, y2, x2;
  float area() const { return (y2 - y1) * (x2 - x1); }
};

float iou(const Box& a, const Box& b) {
  const float h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  const float w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (h <= 0 || w <= 0) return 0;
  const float inter = h * w, uni = a.area() + b.area() - inter;
  return uni > 0 ? inter / uni : 0;
}

float float_arg(const KernelIO& io, size_t i, float fallback, const char* what) {
  if (!given_input(io, i)) return fallback;
  const Tensor& t = io.input(i);
  if (t.numel() != 1 || !is_float_type(t.type()))
    fail(ErrorKind::BadInput, "", std::string(what) + " must be a single float");
  return static_cast<float>(t.get_double(0));
}

class NonMaxSuppression : public Kernel {
 public:
  explicit NonMaxSuppression(bool center) : center_(center) {}

  void run(KernelIO& io) override {
    const Tensor& boxes = io.input(0);
    const Tensor& scores = io.input(1);
    if (boxes.rank() != 3 || boxes.dim(2) != 4)
      fail(ErrorKind::BadInput, "",
           "boxes must be [batch, boxes, 4], got " + shape_string(boxes.shape()));
    if (scores.rank() != 3 || scores.dim(0) != boxes.dim(0) || scores.dim(2) != boxes.dim(1))
      fail(ErrorKind::BadInput, "",
           "scores of shape " + shape_string(scores.shape()) + " do not match boxes of shape " +
               shape_string(boxes.shape()));
    if (!is_float_type(boxes.type()) || !is_float_type(scores.type()))
      fail(ErrorKind::BadInput, "", "boxes and scores must be float tensors");
    const int64_t max_out =
        given_input(io, 2) ? kernels::read_int(io.input(2), "max_output_boxes_per_class") : 0;
    const float iou_threshold = float_arg(io, 3, 0.0f, "iou_threshold");
    const bool has_score_threshold = given_input(io, 4);
    const float score_threshold = float_arg(io, 4, 0.0f, "score_threshold");
    if (iou_threshold < 0 || iou_threshold > 1)
      fail(ErrorKind::BadInput, "", "iou_threshold must be in [0, 1]");

    const int64_t batches = boxes.dim(0), n = boxes.dim(1), classes = scores.dim(1);
    const Tensor bf = kernels::to_float(boxes), sf = kernels::to_float(scores);
    std::vector<Box> bx(static_cast<size_t>(n));
    std::vector<int64_t> order, kept, selected;
    for (int64_t b = 0; b < batches && max_out > 0; ++b) {
      for (int64_t i = 0; i < n; ++i)
        bx[static_cast<size_t>(i)] = box(bf.data<float>() + (b * n + i) * 4);
      for (int64_t c = 0; c < classes; ++c) {
        const float* sc = sf.data<float>() + (b * classes + c) * n;
        auto score = [sc](int64_t i) { return sc[i]; };
        order.clear();
        for (int64_t i = 0; i < n; ++i)
          if (!has_score_threshold || score(i) > score_threshold) order.push_back(i);
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t l, int64_t r) { return score(l) > score(r); });
        kept.clear();
        for (int64_t i : order) {
          if (static_cast<int64_t>(kept.size()) >= max_out) break;
          bool keep = true;
          for (int64_t k : kept)
            if (iou(bx[static_cast<size_t>(k)], bx[static_cast<size_t>(i)]) > iou_threshold) {
              keep = false;
              break;
            }
          if (keep) kept.push_back(i);
        }
        for (int64_t k : kept) selected.insert(selected.end(), {b, c, k});
      }
    }
    const auto rows = static_cast<int64_t>(selected.size() / 3);
    io.set_output(0, Tensor::from_vector(ElemType::Int64, Dims{rows, 3}, selected));
  }

 private:
  Box box(const float* v) const {
    if (center_) {
      const float xc = v[0], yc = v[1], w = v[2], h = v[3];
      return {yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2};
    }
    return {std::min(v[0], v[2]), std::min(v[1], v[3]), std::max(v[0], v[2]), std::max(v[1], v[3])};
  }

  bool center_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t center = ctx.attr_int("center_point_box", 0);
  if (center != 0 && center != 1) ctx.invalid("center_point_box must be 0 or 1");
  return std::make_unique<NonMaxSuppression>(center == 1);
}

// selected_indices (count, 3) int64; the count depends on the scores.
void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ElemType::Int64, ir::Shape::of({ir::Dim::unknown(), ir::Dim::known(3)}));
}

constexpr SignatureText kRows[] = {
    {10,
     "boxes: tensor(float), scores: tensor(float), max_output_boxes_per_class?: tensor(int64), "
     "iou_threshold?: tensor(float), score_threshold?: tensor(float) -> selected_indices: "
     "tensor(int64); center_point_box: int = 0"},
    {11,
     "boxes: tensor(float), scores: tensor(float), max_output_boxes_per_class?: tensor(int64), "
     "iou_threshold?: tensor(float), score_threshold?: tensor(float) -> selected_indices: "
     "tensor(int64); center_point_box: int = 0"}};

}  // namespace non_max_suppression_op
}  // namespace

OpDef def_NonMaxSuppression() {
  using namespace non_max_suppression_op;
  return def_from_rows("", "NonMaxSuppression", make, infer, kRows);
}

}  // namespace bough::ops
