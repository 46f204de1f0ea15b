// org.openvinotoolkit DetectionOutput-1: OpenVINO's DetectionOutput-8 (the SSD output stage)
// as its ONNX frontend reads the node (src/frontends/onnx/frontend/src/op/org.openvinotoolkit/
// detection_output.cpp; its defaults: keep_top_k 1, normalized 1). Inputs: box logits
// [N, P * L * 4] (L = 1 when share_location, else the class count C), class scores
// [N, P * C], priors [1 or N, 1 or 2, P * (4, or 5 when not normalized)], and optionally the
// ARM scores [N, P * 2] and box logits of RefineDet. Each image's boxes are decoded from the
// priors (CORNER or CENTER_SIZE, with the priors' variances unless variance_encoded_in_target),
// kept by per-class NMS (Caffe's, or MXNet's one class per prior when decrease_label_id) and
// keep_top_k, and written as [image, label, score, xmin, ymin, xmax, ymax] rows of the output
// [1, 1, R, 7]; R is N * keep_top_k, or N * top_k * C when keep_top_k is -1 and top_k > 0,
// else N * P * C. The row after the last detection starts with -1, the rest are 0. Computed
// as OpenVINO's reference does (src/core/reference/include/openvino/reference/
// detection_output.hpp); where it sorts unstably, equal keys keep their order here.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>

#include "bough/error.h"
#include "kernels/convert.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace detection_output_op {

struct Attrs {
  int64_t background = 0, top_k = -1, keep_top_k = 1;
  bool variance_in_target = false, corner = true, share_location = true;
  bool clip_after = false, clip_before = false, mxnet = false, normalized = true;
  float nms_threshold = 0, confidence_threshold = 0, objectness_score = 0;
  float input_height = 1, input_width = 1;
};

Attrs read_attrs(const NodeView& ctx) {
  Attrs a;
  a.background = ctx.attr_int("background_label_id", 0);
  a.top_k = ctx.attr_int("top_k", -1);
  a.keep_top_k = ctx.attr_int("keep_top_k", 1);
  a.variance_in_target = ctx.attr_int("variance_encoded_in_target", 0) != 0;
  std::string code = ctx.attr_string("code_type", "caffe.PriorBoxParameter.CORNER");
  // The frontend takes "CORNER" for "caffe.PriorBoxParameter.CORNER".
  const std::string prefix = "caffe.PriorBoxParameter.";
  if (code.rfind(prefix, 0) == 0) code = code.substr(prefix.size());
  if (code != "CORNER" && code != "CENTER_SIZE")
    ctx.invalid("code_type must be CORNER or CENTER_SIZE, not \"" + code + "\"");
  a.corner = code == "CORNER";
  a.share_location = ctx.attr_int("share_location", 1) != 0;
  if (!ctx.has_attr("nms_threshold")) ctx.invalid("nms_threshold is required");
  a.nms_threshold = ctx.attr_float("nms_threshold", 0);
  a.confidence_threshold = ctx.attr_float("confidence_threshold", 0);
  a.clip_after = ctx.attr_int("clip_after_nms", 0) != 0;
  a.clip_before = ctx.attr_int("clip_before_nms", 0) != 0;
  a.mxnet = ctx.attr_int("decrease_label_id", 0) != 0;
  a.normalized = ctx.attr_int("normalized", 1) != 0;
  a.input_height = static_cast<float>(ctx.attr_int("input_height", 1));
  a.input_width = static_cast<float>(ctx.attr_int("input_width", 1));
  a.objectness_score = ctx.attr_float("objectness_score", 0);
  const size_t inputs = ctx.node.inputs.size();
  if (inputs != 3 && inputs != 5) ctx.invalid("DetectionOutput takes 3 or 5 inputs");
  return a;
}

// The sizes the inputs' dims give; `fail_fn(message)` reports dims that do not fit.
struct Sizes {
  int64_t images = 0, priors = 0, classes = 0, prior_batch = 0, rows = 0;
};

template <typename Fail>
Sizes sizes_of(const Attrs& a, const std::vector<std::vector<int64_t>>& dims, Fail&& fail_fn) {
  static const size_t kRank[] = {2, 2, 3, 2, 2};
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].size() != kRank[i])
      fail_fn("input " + std::to_string(i) + " must have rank " + std::to_string(kRank[i]) +
              ", not " + std::to_string(dims[i].size()));
  Sizes s;
  const int64_t prior_size = a.normalized ? 4 : 5;
  const std::vector<int64_t>& loc = dims[0];
  const std::vector<int64_t>& conf = dims[1];
  const std::vector<int64_t>& pri = dims[2];
  if (pri[2] <= 0 || pri[2] % prior_size != 0)
    fail_fn("the priors' last dim " + std::to_string(pri[2]) + " is not a positive multiple of " +
            std::to_string(prior_size));
  s.priors = pri[2] / prior_size;
  if (conf[1] % s.priors != 0)
    fail_fn("the class scores' dim " + std::to_string(conf[1]) + " is not a multiple of the " +
            std::to_string(s.priors) + " priors");
  s.classes = conf[1] / s.priors;
  s.images = loc[0];
  const int64_t loc_classes = a.share_location ? 1 : s.classes;
  if (loc[1] != s.priors * loc_classes * 4)
    fail_fn("the box logits' dim " + std::to_string(loc[1]) + " is not " +
            std::to_string(s.priors * loc_classes * 4));
  if (conf[0] != s.images) fail_fn("the class scores are not of the box logits' batch");
  if (pri[0] != 1 && pri[0] != s.images)
    fail_fn("the priors' batch must be 1 or " + std::to_string(s.images));
  if (pri[1] != (a.variance_in_target ? 1 : 2))
    fail_fn(std::string("the priors' dim 1 must be ") + (a.variance_in_target ? "1" : "2") +
            " (variance_encoded_in_target)");
  if (dims.size() == 5 &&
      (dims[3] != std::vector<int64_t>{s.images, s.priors * 2} || dims[4] != loc))
    fail_fn("the additional class scores must be [N, priors * 2] and box logits as the box logits");
  s.prior_batch = pri[0];
  if (a.keep_top_k > 0)
    s.rows = s.images * a.keep_top_k;
  else if (a.keep_top_k == -1 && a.top_k > 0)
    s.rows = s.images * a.top_k * s.classes;
  else
    s.rows = s.images * s.priors * s.classes;
  return s;
}

template <typename T>
struct Box {
  T xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};

template <typename T>
T box_size(const Box<T>& b) {
  return b.xmax < b.xmin || b.ymax < b.ymin ? T(0) : (b.xmax - b.xmin) * (b.ymax - b.ymin);
}

template <typename T>
T overlap(const Box<T>& a, const Box<T>& b) {
  if (b.xmin > a.xmax || b.xmax < a.xmin || b.ymin > a.ymax || b.ymax < a.ymin) return 0;
  const T w = std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin);
  const T h = std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin);
  if (!(w > 0 && h > 0)) return 0;
  const T inter = w * h;
  return inter / (box_size(a) + box_size(b) - inter);
}

template <typename T>
Box<T> clipped(Box<T> b) {
  for (T* v : {&b.xmin, &b.ymin, &b.xmax, &b.ymax}) *v = std::max<T>(0, std::min<T>(1, *v));
  return b;
}

template <typename T>
class Detector {
 public:
  Detector(const Attrs& a, const Sizes& s) : a_(a), s_(s) {}

  void run(const T* loc, const T* conf, const T* priors, const T* arm_conf, const T* arm_loc,
           T* out) const {
    std::fill(out, out + s_.rows * 7, T(0));
    const int64_t prior_size = a_.normalized ? 4 : 5;
    const int64_t prior_stride = (a_.variance_in_target ? 1 : 2) * s_.priors * prior_size;
    const int64_t loc_classes = a_.share_location ? 1 : s_.classes;
    int64_t count = 0;
    for (int64_t i = 0; i < s_.images; ++i) {
      const T* pri = priors + (s_.prior_batch == 1 ? 0 : i) * prior_stride;
      // scores[c][p]
      std::vector<std::vector<T>> scores(static_cast<size_t>(s_.classes),
                                         std::vector<T>(static_cast<size_t>(s_.priors)));
      for (int64_t p = 0; p < s_.priors; ++p) {
        const bool dropped =
            arm_conf && arm_conf[(i * s_.priors + p) * 2 + 1] < static_cast<T>(a_.objectness_score);
        for (int64_t c = 0; c < s_.classes; ++c)
          scores[c][p] =
              dropped ? T(c == a_.background ? 1 : 0) : conf[(i * s_.priors + p) * s_.classes + c];
      }
      // decoded[label]: label -1 when share_location; the background has none.
      std::map<int64_t, std::vector<Box<T>>> decoded;
      for (int64_t c = 0; c < loc_classes; ++c) {
        const int64_t label = a_.share_location ? -1 : c;
        if (a_.background > -1 && label == a_.background) continue;
        std::vector<Box<T>>& boxes = decoded[label];
        for (int64_t p = 0; p < s_.priors; ++p) {
          const T* pb = pri + p * prior_size + (a_.normalized ? 0 : 1);
          Box<T> prior{pb[0], pb[1], pb[2], pb[3]};
          const T* var = a_.variance_in_target ? nullptr : pri + s_.priors * prior_size + p * 4;
          const int64_t at = ((i * s_.priors + p) * loc_classes + c) * 4;
          // RefineDet: the ARM's logits refine the prior first.
          if (arm_loc) prior = decode(prior, var, arm_loc + at);
          boxes.push_back(decode(prior, var, loc + at));
        }
      }
      std::map<int64_t, std::vector<int64_t>> kept =
          a_.mxnet ? mxnet_nms(decoded, scores) : caffe_nms(decoded, scores);
      kept = keep_top(kept, scores);
      for (const auto& [label, indices] : kept) {
        auto found = decoded.find(a_.share_location ? -1 : label);
        if (found == decoded.end()) continue;
        const std::vector<Box<T>>& boxes = found->second;
        for (int64_t idx : indices) {
          if (count >= s_.rows) break;
          const Box<T> b = a_.clip_after ? clipped(boxes[idx]) : boxes[idx];
          T* row = out + count * 7;
          row[0] = static_cast<T>(i);
          row[1] = static_cast<T>(a_.mxnet ? label - 1 : label);
          row[2] = scores[label][idx];
          row[3] = b.xmin;
          row[4] = b.ymin;
          row[5] = b.xmax;
          row[6] = b.ymax;
          ++count;
        }
      }
    }
    if (count < s_.rows) out[count * 7] = T(-1);
  }

 private:
  // The box `d` encodes relative to `prior` (its coordinates divided by the input size when
  // not normalized, as the reference does before each decoding, a refined prior's again),
  // with `var` (null when the variance is encoded in the target); clipped when
  // clip_before_nms.
  Box<T> decode(Box<T> prior, const T* var, const T* d) const {
    if (!a_.normalized) {
      prior.xmin /= static_cast<T>(a_.input_width);
      prior.ymin /= static_cast<T>(a_.input_height);
      prior.xmax /= static_cast<T>(a_.input_width);
      prior.ymax /= static_cast<T>(a_.input_height);
    }
    const T v[4] = {var ? var[0] : T(1), var ? var[1] : T(1), var ? var[2] : T(1),
                    var ? var[3] : T(1)};
    Box<T> b;
    if (a_.corner) {
      b = {prior.xmin + v[0] * d[0], prior.ymin + v[1] * d[1], prior.xmax + v[2] * d[2],
           prior.ymax + v[3] * d[3]};
    } else {
      const T w = prior.xmax - prior.xmin, h = prior.ymax - prior.ymin;
      const T cx = v[0] * d[0] * w + (prior.xmin + prior.xmax) / 2;
      const T cy = v[1] * d[1] * h + (prior.ymin + prior.ymax) / 2;
      const T bw = static_cast<T>(std::exp(v[2] * d[2])) * w;
      const T bh = static_cast<T>(std::exp(v[3] * d[3])) * h;
      b = {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
    }
    return a_.clip_before ? clipped(b) : b;
  }

  // Caffe: per class but the background, the priors scoring above confidence_threshold by
  // descending score (top_k of them), each kept unless it overlaps one kept by more than
  // nms_threshold.
  std::map<int64_t, std::vector<int64_t>> caffe_nms(
      const std::map<int64_t, std::vector<Box<T>>>& decoded,
      const std::vector<std::vector<T>>& scores) const {
    std::map<int64_t, std::vector<int64_t>> kept;
    for (int64_t c = 0; c < s_.classes; ++c) {
      if (c == a_.background) continue;
      auto boxes = decoded.find(a_.share_location ? -1 : c);
      if (boxes == decoded.end()) continue;
      std::vector<std::pair<T, int64_t>> order;
      for (int64_t p = 0; p < s_.priors; ++p)
        if (scores[c][p] > static_cast<T>(a_.confidence_threshold))
          order.push_back({scores[c][p], p});
      std::stable_sort(order.begin(), order.end(), by_score);
      if (a_.top_k > -1 && static_cast<size_t>(a_.top_k) < order.size()) order.resize(a_.top_k);
      std::vector<int64_t>& keep = kept[c];
      for (const auto& [score, p] : order) keep_unless_overlapping(boxes->second, p, keep);
    }
    return kept;
  }

  // MXNet: each prior goes to its best class (classes from 1, the background aside) when
  // that score is at least confidence_threshold; the top_k best, by descending score, are
  // kept per class unless overlapping one kept by more than nms_threshold.
  std::map<int64_t, std::vector<int64_t>> mxnet_nms(
      const std::map<int64_t, std::vector<Box<T>>>& decoded,
      const std::vector<std::vector<T>>& scores) const {
    std::vector<std::pair<T, std::pair<int64_t, int64_t>>> order;
    for (int64_t p = 0; p < s_.priors; ++p) {
      T best = -1;
      int64_t id = 0;
      for (int64_t c = 1; c < s_.classes; ++c) {
        if (a_.background > -1 && c == a_.background) continue;
        if (scores[c][p] > best) {
          best = scores[c][p];
          id = c;
        }
      }
      if (id > 0 && best >= static_cast<T>(a_.confidence_threshold))
        order.push_back({best, {id, p}});
    }
    std::stable_sort(order.begin(), order.end(), by_score_then_prior);
    if (a_.top_k != -1 && order.size() > static_cast<size_t>(a_.top_k)) order.resize(a_.top_k);
    std::map<int64_t, std::vector<int64_t>> kept;
    for (const auto& [score, at] : order)
      keep_unless_overlapping(decoded.at(a_.share_location ? -1 : at.first), at.second,
                              kept[at.first]);
    return kept;
  }

  void keep_unless_overlapping(const std::vector<Box<T>>& boxes, int64_t p,
                               std::vector<int64_t>& keep) const {
    for (int64_t k : keep)
      if (overlap(boxes[p], boxes[k]) > static_cast<T>(a_.nms_threshold)) return;
    keep.push_back(p);
  }

  // At most keep_top_k detections of an image: the best by score (then prior index), listed
  // per label in that order.
  std::map<int64_t, std::vector<int64_t>> keep_top(
      std::map<int64_t, std::vector<int64_t>> kept,
      const std::vector<std::vector<T>>& scores) const {
    size_t total = 0;
    for (const auto& [label, indices] : kept) total += indices.size();
    if (a_.keep_top_k < 0 || total <= static_cast<size_t>(a_.keep_top_k)) return kept;
    std::vector<std::pair<T, std::pair<int64_t, int64_t>>> order;
    for (const auto& [label, indices] : kept)
      for (int64_t idx : indices) order.push_back({scores[label][idx], {label, idx}});
    std::stable_sort(order.begin(), order.end(), by_score_then_prior);
    order.resize(static_cast<size_t>(a_.keep_top_k));
    std::map<int64_t, std::vector<int64_t>> top;
    for (const auto& [score, at] : order) top[at.first].push_back(at.second);
    return top;
  }

  static bool by_score(const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
    return x.first > y.first || (x.first == y.first && x.second < y.second);
  }
  static bool by_score_then_prior(const std::pair<T, std::pair<int64_t, int64_t>>& x,
                                  const std::pair<T, std::pair<int64_t, int64_t>>& y) {
    return x.first > y.first || (x.first == y.first && x.second.second < y.second.second);
  }

  const Attrs& a_;
  const Sizes& s_;
};

class DetectionOutput : public Kernel {
 public:
  explicit DetectionOutput(Attrs a) : a_(a) {}

  void run(KernelIO& io) override {
    const size_t n = io.num_inputs() == 5 && io.has_input(3) && io.has_input(4) ? 5 : 3;
    std::vector<std::vector<int64_t>> dims;
    for (size_t i = 0; i < n; ++i) dims.push_back(io.input(i).shape().vec());
    const Sizes s =
        sizes_of(a_, dims, [](const std::string& m) { fail(ErrorKind::BadInput, "", m); });
    const ElemType type = io.input(0).type();
    for (size_t i = 1; i < n; ++i)
      if (io.input(i).type() != type) fail(ErrorKind::BadInput, "", "inputs of different types");
    // float16 and bfloat16 are computed in float.
    const bool wide = type == ElemType::Float || type == ElemType::Double;
    std::vector<Tensor> in;
    for (size_t i = 0; i < n; ++i)
      in.push_back(wide ? io.input(i) : kernels::cast(io.input(i), ElemType::Float));
    Tensor out(wide ? type : ElemType::Float, {1, 1, s.rows, 7});
    auto go = [&](auto tag) {
      using T = typename decltype(tag)::type;
      Detector<T>(a_, s).run(in[0].data<T>(), in[1].data<T>(), in[2].data<T>(),
                             n == 5 ? in[3].data<T>() : nullptr, n == 5 ? in[4].data<T>() : nullptr,
                             out.data<T>());
    };
    if (out.type() == ElemType::Double)
      go(std::type_identity<double>{});
    else
      go(std::type_identity<float>{});
    io.set_output(0, wide ? std::move(out) : kernels::cast(out, type));
  }

 private:
  Attrs a_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<DetectionOutput>(read_attrs(ctx));
}

void infer(InferContext& ctx) {
  const Attrs a = read_attrs(ctx);
  const size_t n = ctx.node.inputs.size();
  std::vector<std::vector<int64_t>> dims;
  bool known = true;
  for (size_t i = 0; i < n && known; ++i) {
    const ir::Shape& sh = ctx.input_shape(i);
    known = sh.rank_known;
    std::vector<int64_t> d;
    for (const ir::Dim& x : sh.dims) {
      known = known && x.is_known();
      d.push_back(x.value);
    }
    dims.push_back(d);
  }
  ir::Dim rows = ir::Dim::unknown();
  if (known)
    rows = ir::Dim::known(sizes_of(a, dims, [&](const std::string& m) { ctx.invalid(m); }).rows);
  ctx.set_output_tensor(
      0, ctx.input_elem(0),
      ir::Shape::of({ir::Dim::known(1), ir::Dim::known(1), rows, ir::Dim::known(7)}));
}

constexpr SignatureText kRows[] = {
    {1,
     "box_logits: T, class_preds: T, proposals: T, aux_class_preds?: T, aux_box_preds?: T "
     "-> detections: T; T = float float16 double bfloat16; background_label_id: int = 0, "
     "top_k: int = -1, variance_encoded_in_target: int = 0, keep_top_k: int = 1, "
     "code_type: string?, share_location: int = 1, nms_threshold: float, "
     "confidence_threshold: float = 0.0, clip_after_nms: int = 0, clip_before_nms: int = 0, "
     "decrease_label_id: int = 0, normalized: int = 1, input_width: int = 1, "
     "input_height: int = 1, objectness_score: float = 0.0"}};

}  // namespace detection_output_op
}  // namespace

OpDef def_OvDetectionOutput() {
  using namespace detection_output_op;
  return def_from_rows("org.openvinotoolkit", "DetectionOutput", make, infer, kRows);
}

}  // namespace bough::ops
