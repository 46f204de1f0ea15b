// Interpolate, both ways: OpenVINO's Interpolate-1, -4 and -11 as ONNX's Resize (opset 19's,
// with an `axes` attribute), and ONNX's Resize as Interpolate-11. OpenVINO's reference
// (openvino/reference/interpolate.hpp) is the meaning kept; where Resize cannot say it, the
// layer is refused with the difference named. What differs, and how each is handled:
//
// - Output size from scales: OpenVINO truncates len * (scale + 1e-6) computed in float, ONNX
//   floors len * scale. Where the dim is known both are computed and must agree; where it is
//   not, only scales for which they cannot differ on dims below 80000 pass (safe_scale).
// - An axis whose output length equals its input length is copied by OpenVINO whatever its
//   scale; ONNX still moves the coordinates by the scale. Such axes get scale 1.
// - align_corners divides by the output length in OpenVINO, by len * scale (unrounded) in
//   ONNX: with scales, the sizes are given instead where the dims are known.
// - OpenVINO's "linear" mode weighs the in-range neighbours only, normalized (ONNX's
//   exclude_outside=1), and with antialias stretches every axis by its scale, narrowing the
//   upsampled ones (ONNX stretches the downsampled ones only): antialias with axes going
//   both ways is refused. "linear_onnx" and "cubic" ignore antialias; so does nearest.
// - nearest_mode "simple" (Interpolate-1's always) rounds up on downsampled axes and down on
//   the others: one Resize per direction, with nearest_mode ceil and floor.
// - tf_half_pixel_for_nn is Resize-11's alone (the mapped graph follows opset 25): refused,
//   as are the Pillow modes and Interpolate-1's "area", which Resize does not have.
// - pads_begin/pads_end pad the input with zeros first: a Pad before the Resize.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// OpenVINO's output length for `len` and `scale` (its shape inference: dim::scale).
int64_t ov_scaled(int64_t len, float scale) {
  if (scale == 1.0f) return len;
  return static_cast<int64_t>(static_cast<float>(len) * (scale + 1.0e-6f));
}

// ONNX's output length (Resize: floor(len * scale)).
int64_t onnx_scaled(int64_t len, float scale) {
  return static_cast<int64_t>(std::floor(static_cast<double>(len) * static_cast<double>(scale)));
}

// Whether OpenVINO and ONNX give the same output length, and move coordinates alike, for any
// input length below 80000 when the length is not known: scale a multiple of 1/8 (so len *
// scale is an integer or 1/8 short of one, more than OpenVINO's 1e-6 * len adds), and not in
// (1, 1.5), where floor(len * scale) == len for some len > 1.
bool safe_scale(float s) {
  if (s == 1.0f) return true;
  const bool eighths = std::floor(s * 8.0f) == s * 8.0f && s <= 64.0f;
  return eighths && (s < 1.0f || s >= 1.5f);
}

// An Interpolate layer's meaning, in OpenVINO's terms.
struct Interp {
  std::string mode, coord, nearest;  // lower case
  bool sizes_mode = true, antialias = false;
  double cube = -0.75;
  std::vector<int64_t> axes, pads_begin, pads_end;
  size_t target_at = 1;  // the input holding the sizes or the scales
};

// pads_begin/pads_end as `rank` values (OpenVINO drops the extra ones and fills with 0);
// with the rank not known (-1), they must be zeros, and are left empty.
std::vector<int64_t> pads_of(GraphLowering& g, const XmlLayer& l, const char* key, int64_t rank) {
  std::vector<int64_t> p = int_list(g, l, key);
  if (rank < 0) {
    if (std::any_of(p.begin(), p.end(), [](int64_t v) { return v != 0; }))
      fail(ErrorKind::Unsupported, g.where(l),
           std::string(key) + " on an input whose rank is not known");
    return {};
  }
  p.resize(static_cast<size_t>(rank), 0);
  for (int64_t v : p)
    if (v < 0)
      fail(ErrorKind::InvalidModel, g.where(l), std::string(key) + " must not be negative");
  return p;
}

// Interpolate-1: sizes always, nearest_mode simple, and the coordinate mode its reference
// derives (transform_v0_to_v4): align_corners, else half_pixel for linear without pads
// except on a rank-4 input resized on {2, 3}, else asymmetric. Its linear is linear_onnx
// below rank 5 and linear at rank 5.
Interp parse_v1(GraphLowering& g, const LayerIO& io, int64_t rank) {
  const XmlLayer& l = io.layer;
  check_inputs(g, io, 2, 2);
  Interp it;
  if (!l.attr("axes")) fail(ErrorKind::InvalidModel, g.where(l), "Interpolate-1 without axes");
  it.axes = int_list(g, l, "axes");
  it.pads_begin = pads_of(g, l, "pads_begin", rank);
  it.pads_end = pads_of(g, l, "pads_end", rank);
  it.antialias = flag(l, "antialias", false);
  const std::string mode = enum_data(l, "mode", "");
  if (mode == "linear" && (rank > 5 || rank < 0))
    fail(ErrorKind::Unsupported, g.where(l),
         "Interpolate-1's linear mode above rank 5 or of a rank not known");
  it.mode = mode == "linear" ? (rank < 5 ? "linear_onnx" : "linear") : mode;
  if (it.mode == "area")
    fail(ErrorKind::Unsupported, g.where(l), "Interpolate-1's area mode has no ONNX equivalent");
  it.nearest = "simple";
  const bool no_pads =
      std::all_of(it.pads_begin.begin(), it.pads_begin.end(), [](int64_t p) { return p == 0; }) &&
      std::all_of(it.pads_end.begin(), it.pads_end.end(), [](int64_t p) { return p == 0; });
  const std::set<int64_t> axis_set(it.axes.begin(), it.axes.end());
  if (flag(l, "align_corners", true))
    it.coord = "align_corners";
  else if (mode == "linear" && no_pads && !(rank == 4 && axis_set == std::set<int64_t>{2, 3}))
    it.coord = "half_pixel";
  else
    it.coord = "asymmetric";
  return it;
}

// Interpolate-4 (data, sizes, scales, axes?) and -11 (data, scales_or_sizes, axes?).
Interp parse_v4(GraphLowering& g, const LayerIO& io, int64_t rank, int version) {
  const XmlLayer& l = io.layer;
  const size_t axes_at = version == 4 ? 3 : 2;
  check_inputs(g, io, axes_at, axes_at + 1);
  Interp it;
  it.mode = enum_data(l, "mode", "");
  it.coord = enum_data(l, "coordinate_transformation_mode", "half_pixel");
  it.nearest = enum_data(l, "nearest_mode", "round_prefer_floor");
  it.antialias = flag(l, "antialias", false);
  it.cube = float_data(g, l, "cube_coeff", -0.75);
  it.pads_begin = pads_of(g, l, "pads_begin", rank);
  it.pads_end = pads_of(g, l, "pads_end", rank);
  const std::string shape_mode = enum_data(l, "shape_calculation_mode", "");
  if (shape_mode != "sizes" && shape_mode != "scales")
    fail(ErrorKind::InvalidModel, g.where(l), "shape_calculation_mode \"" + shape_mode + "\"");
  it.sizes_mode = shape_mode == "sizes";
  it.target_at = version == 4 && !it.sizes_mode ? 2 : 1;
  if (io.in.size() > axes_at) {
    it.axes = const_ints(g, io, axes_at, "Interpolate's axes");
  } else {
    if (rank < 0)
      fail(ErrorKind::Unsupported, g.where(l),
           "Interpolate without axes, of an input whose rank is not known");
    for (int64_t d = 0; d < rank; ++d) it.axes.push_back(d);
  }
  if (version == 11 && (it.mode == "bilinear_pillow" || it.mode == "bicubic_pillow"))
    fail(ErrorKind::Unsupported, g.where(l),
         "Interpolate-11's " + it.mode +
             " mode (Pillow's filters) has no exact ONNX Resize "
             "equivalent");
  return it;
}

// The ONNX side of one axis: a scale, or a size (known, or read at run time).
struct AxisTarget {
  int64_t axis = 0;
  std::optional<int64_t> in;   // the padded input length, when known
  std::optional<float> scale;  // OpenVINO's scale for the axis, when known
  std::optional<int64_t> out;  // OpenVINO's output length, when known
};

// ONNX's Resize over `axes` of x, by `scales` or by `sizes` (a constant or run-time edge).
void emit_resize(GraphLowering& g, const Interp& it, ir::Edge* x, ir::Edge* y,
                 const std::vector<int64_t>& axes, ir::Edge* target, bool by_sizes,
                 const std::string& nearest, const std::string& name) {
  std::vector<ir::Edge*> ins{x, nullptr, by_sizes ? nullptr : target};
  if (by_sizes) ins.push_back(target);
  ir::Node* n = g.node_to("Resize", ins, {y}, name);
  const bool linear = it.mode == "linear" || it.mode == "linear_onnx";
  n->attributes.push_back(string_attr("mode", linear ? "linear" : it.mode));
  n->attributes.push_back(ints_attr("axes", axes));
  n->attributes.push_back(string_attr("coordinate_transformation_mode", it.coord));
  if (it.mode == "nearest") n->attributes.push_back(string_attr("nearest_mode", nearest));
  if (it.mode == "cubic")
    n->attributes.push_back(float_attr("cubic_coeff_a", static_cast<float>(it.cube)));
  if (it.mode == "linear") {
    n->attributes.push_back(int_attr("exclude_outside", 1));
    if (it.antialias) n->attributes.push_back(int_attr("antialias", 1));
  }
}

void map_interpolate(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  check_inputs(g, io, 2, 4);  // each version's own count is checked as its inputs are read
  const ir::Shape& shape = l.inputs.at(0).shape;
  const int64_t rank = shape.rank_known ? static_cast<int64_t>(shape.dims.size()) : -1;
  const int version = op_version(l);
  Interp it = version == 1 ? parse_v1(g, io, rank) : parse_v4(g, io, rank, version);
  const std::set<std::string> modes{"nearest", "linear", "linear_onnx", "cubic"};
  if (!modes.count(it.mode)) fail(ErrorKind::InvalidModel, g.where(l), "mode \"" + it.mode + "\"");
  const ir::Type& xt = io.in[0]->type;
  if (it.mode != "nearest" && xt.kind == ir::Type::Kind::Tensor && !is_float_type(xt.elem))
    fail(ErrorKind::Unsupported, g.where(l),
         "Interpolate's " + it.mode +
             " mode of a non-float input (OpenVINO rounds or truncates "
             "the result by mode)");
  const std::set<std::string> coords{"half_pixel", "pytorch_half_pixel", "asymmetric",
                                     "tf_half_pixel_for_nn", "align_corners"};
  if (!coords.count(it.coord))
    fail(ErrorKind::InvalidModel, g.where(l),
         "coordinate_transformation_mode \"" + it.coord + "\"");
  if (it.coord == "tf_half_pixel_for_nn")
    fail(ErrorKind::Unsupported, g.where(l),
         "coordinate_transformation_mode tf_half_pixel_for_nn: ONNX has it in Resize-11 only "
         "(the mapped graph follows opset 25)");
  const std::set<std::string> nearests{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil",
                                       "simple"};
  if (!nearests.count(it.nearest))
    fail(ErrorKind::InvalidModel, g.where(l), "nearest_mode \"" + it.nearest + "\"");
  std::set<int64_t> seen;
  for (int64_t a : it.axes)
    if (a < 0 || (rank >= 0 && a >= rank) || !seen.insert(a).second)
      fail(ErrorKind::InvalidModel, g.where(l),
           "axes must be distinct and within the input's rank " + std::to_string(rank));
  if (it.mode == "linear_onnx") {
    // OpenVINO's linear_onnx resizes all axes, or (rank 4 and up) all but the first two.
    std::vector<int64_t> all, spatial;
    for (int64_t d = 0; d < rank; ++d) (d >= 2 ? spatial : all).push_back(d);
    all.insert(all.end(), spatial.begin(), spatial.end());
    if (rank < 2 || (it.axes != all && (rank < 4 || it.axes != spatial)))
      fail(ErrorKind::Unsupported, g.where(l),
           "linear_onnx of a rank not known, or on axes other than all, or all but the first "
           "two (OpenVINO's reference refuses them)");
    it.antialias = false;  // linear_onnx ignores it
  }
  if (it.mode != "linear") it.antialias = false;  // so do nearest and cubic

  const size_t n = it.axes.size();
  std::vector<AxisTarget> targets(n);
  ir::Edge* runtime_sizes = nullptr;
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (it.sizes_mode && !GraphLowering::constant_value(io.in[it.target_at])) {
    const ir::Shape& s = l.inputs.at(it.target_at).shape;
    if (!s.rank_known || s.dims.size() != 1 || !s.dims[0].is_known() ||
        s.dims[0].value != static_cast<int64_t>(n))
      fail(ErrorKind::Unsupported, g.where(l),
           "sizes known only at run time must hold one value per axis");
    runtime_sizes = g.as_int64(io.in[it.target_at], l.name + "/sizes");
  } else if (it.sizes_mode) {
    sizes = const_ints(g, io, it.target_at, "sizes");
  } else {
    scales = const_floats(g, io, it.target_at,
                          "scales (OpenVINO rounds the output size otherwise than ONNX, so "
                          "they are checked)");
  }
  if ((it.sizes_mode && !runtime_sizes && sizes.size() < n) ||
      (!it.sizes_mode && scales.size() < n))
    fail(ErrorKind::InvalidModel, g.where(l), "fewer sizes or scales than axes");
  for (size_t i = 0; i < n; ++i) {
    AxisTarget& t = targets[i];
    t.axis = it.axes[i];
    const auto d = static_cast<size_t>(t.axis);
    if (rank >= 0 && shape.dims[d].is_known())  // pads are empty when the rank is not known
      t.in = shape.dims[d].value + it.pads_begin[d] + it.pads_end[d];
    if (it.sizes_mode && !runtime_sizes) {
      if (sizes[i] < 0) fail(ErrorKind::InvalidModel, g.where(l), "sizes must not be negative");
      t.out = sizes[i];
      if (t.in && *t.in > 0) t.scale = static_cast<float>(*t.out) / static_cast<float>(*t.in);
    } else if (!it.sizes_mode) {
      t.scale = static_cast<float>(scales[i]);
      if (!(*t.scale > 0) || !std::isfinite(*t.scale))
        fail(ErrorKind::InvalidModel, g.where(l), "scales must be positive and finite");
      if (t.in) t.out = ov_scaled(*t.in, *t.scale);
    }
  }

  // By scales, ONNX must count the same output and move coordinates by the same scale.
  const bool align = it.coord == "align_corners";
  bool by_sizes = it.sizes_mode;
  if (!it.sizes_mode) {
    bool all_known = true;
    for (const AxisTarget& t : targets) all_known = all_known && t.in;
    if (align && all_known) by_sizes = true;  // the output length is all align_corners uses
    for (AxisTarget& t : targets) {
      const float s = *t.scale;
      if (t.in && *t.out == *t.in) {
        t.scale = 1.0f;  // copied as it is
      } else if (t.in && !by_sizes && onnx_scaled(*t.in, s) != *t.out) {
        fail(ErrorKind::Unsupported, g.where(l),
             "scale " + std::to_string(s) + " on axis " + std::to_string(t.axis) + " of length " +
                 std::to_string(*t.in) + ": OpenVINO's output length trunc(len * (scale + 1e-6)) " +
                 "is " + std::to_string(*t.out) + ", ONNX's floor(len * scale) " +
                 std::to_string(onnx_scaled(*t.in, s)));
      } else if (!t.in && (!safe_scale(s) || (align && s != std::floor(s)))) {
        fail(ErrorKind::Unsupported, g.where(l),
             "scale " + std::to_string(s) + " on axis " + std::to_string(t.axis) +
                 " of a length not known: OpenVINO's output length trunc(len * (scale + 1e-6)) " +
                 "(and its align_corners, which divides by it) may differ from ONNX's " +
                 "floor(len * scale)");
      }
    }
  }
  auto direction = [&](const AxisTarget& t, const char* why) {
    if (!t.scale)
      fail(ErrorKind::Unsupported, g.where(l),
           std::string(why) + " with an input or output length not known, which decides " +
               "whether axis " + std::to_string(t.axis) + " is downsampled");
    return *t.scale < 1.0f ? -1 : *t.scale > 1.0f ? 1 : 0;
  };
  if (it.antialias) {
    std::set<int> dirs;
    for (const AxisTarget& t : targets) dirs.insert(direction(t, "antialias"));
    if (dirs.count(-1) && dirs.count(1))
      fail(ErrorKind::Unsupported, g.where(l),
           "antialias with axes both down- and upsampled: OpenVINO narrows the linear filter of "
           "the upsampled axes by their scale, ONNX keeps it");
    if (!dirs.count(-1)) it.antialias = false;  // OpenVINO applies it only when downsampling
    for (const AxisTarget& t : targets)         // ONNX stretches by out / in when given sizes
      if (it.antialias && by_sizes && !it.sizes_mode && t.out && t.in &&
          static_cast<float>(*t.out) / static_cast<float>(*t.in) != *t.scale)
        fail(ErrorKind::Unsupported, g.where(l),
             "antialias with align_corners by a scale other than output / input length: "
             "OpenVINO stretches the filter by the scale, ONNX by the lengths' ratio");
  }
  if (it.coord == "pytorch_half_pixel" && (it.mode == "cubic" || it.antialias))
    for (const AxisTarget& t : targets)
      if ((!t.out || *t.out == 1) && !(t.in && t.out == t.in))
        fail(ErrorKind::Unsupported, g.where(l),
             std::string("cubic or antialiased with pytorch_half_pixel and an output length ") +
                 (t.out ? "of 1" : "not known") +
                 ": there OpenVINO's coordinate is 0, ONNX's -0.5");

  // Padding first, with zeros.
  ir::Edge* x = io.in[0];
  const bool padded =
      std::any_of(it.pads_begin.begin(), it.pads_begin.end(), [](int64_t p) { return p != 0; }) ||
      std::any_of(it.pads_end.begin(), it.pads_end.end(), [](int64_t p) { return p != 0; });
  if (padded) {
    std::vector<int64_t> pads = it.pads_begin;
    pads.insert(pads.end(), it.pads_end.begin(), it.pads_end.end());
    x = g.node("Pad", {x, g.constant(i64_tensor(pads), l.name + "/pads")}, l.name + "/padded");
  }

  if (n == 0) {  // nothing resized: the (padded) input as it is
    g.node_to("Identity", {x}, {io.out[0]}, l.name);
    return;
  }
  // Groups of axes sharing one nearest rounding: "simple" ceils downsampled axes and
  // truncates the others (floor there: a negative coordinate clamps to 0 either way).
  std::vector<std::pair<std::string, std::vector<size_t>>> groups;
  if (it.mode == "nearest" && it.nearest == "simple") {
    std::vector<int> dirs;
    for (const AxisTarget& t : targets) dirs.push_back(direction(t, "nearest_mode simple"));
    // An axis that keeps its length is copied either way: it joins the other axes.
    const bool any_down = std::count(dirs.begin(), dirs.end(), -1) > 0;
    std::vector<size_t> down, up;
    for (size_t i = 0; i < n; ++i)
      (dirs[i] < 0 || (dirs[i] == 0 && any_down) ? down : up).push_back(i);
    if (!down.empty()) groups.push_back({"ceil", down});
    if (!up.empty()) groups.push_back({"floor", up});
  } else {
    std::vector<size_t> all;
    for (size_t i = 0; i < n; ++i) all.push_back(i);
    groups.push_back({it.nearest, all});
  }
  for (size_t k = 0; k < groups.size(); ++k) {
    const auto& [nearest, members] = groups[k];
    std::vector<int64_t> axes, out_sizes;
    std::vector<float> out_scales;
    for (size_t i : members) {
      axes.push_back(targets[i].axis);
      if (by_sizes && !runtime_sizes) out_sizes.push_back(*targets[i].out);
      if (!by_sizes) out_scales.push_back(*targets[i].scale);
    }
    ir::Edge* target = runtime_sizes;
    const std::string part = l.name + (groups.size() > 1 ? "/" + nearest : "");
    if (by_sizes && !runtime_sizes) target = g.constant(i64_tensor(out_sizes), part + "/sizes");
    if (!by_sizes)
      target =
          g.constant(Tensor::from_vector(ElemType::Float,
                                         Dims{static_cast<int64_t>(out_scales.size())}, out_scales),
                     part + "/scales");
    const bool last = k + 1 == groups.size();
    ir::Edge* y =
        last ? io.out[0]
             : g.graph()->new_edge(g.model().unique_name(part), ir::Edge::Origin::NodeOutput);
    emit_resize(g, it, x, y, axes, target, by_sizes, nearest, last ? l.name : part);
    x = y;
  }
}

// The constant values of an optional input, when it is there and not empty; nullopt when it
// is absent or empty, and `known` false when it is there but not constant.
std::optional<std::vector<double>> values_of(const ir::Node& n, size_t k, bool& present) {
  present = false;
  if (n.inputs.size() <= k || !n.inputs[k]) return std::nullopt;
  const ir::Edge* e = n.inputs[k];
  if (e->data && e->data->numel() == 0) return std::nullopt;
  present = true;
  if (!e->data) return std::nullopt;
  std::vector<double> v;
  for (int64_t i = 0; i < e->data->numel(); ++i) v.push_back(e->data->get_double(i));
  return v;
}

std::string float_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// ONNX's Resize as Interpolate-11 (module comment). Axes whose scale is 1, or whose size is
// the input's, are left out (the same copy either way), so that a linear resize of the
// spatial axes of an [N, C, ...] input can be OpenVINO's linear_onnx.
void write_resize(NetWriter& w, const ir::Node& n) {
  auto refuse = [&](const std::string& why) {
    fail(ErrorKind::Unsupported, w.where(n), "Resize " + why);
  };
  auto text = [&](const char* key, const char* fallback) {
    const ir::Attribute* a = n.attr(key);
    return a ? a->s : std::string(fallback);
  };
  const bool v10 = w.opset() < 11;
  const std::string mode = text("mode", "nearest");
  const std::string coord =
      v10 ? "asymmetric" : text("coordinate_transformation_mode", "half_pixel");
  const std::string nearest = v10 ? "simple" : text("nearest_mode", "round_prefer_floor");
  const bool antialias_attr = int_attr_or(n, "antialias", 0) != 0;
  bool antialias = antialias_attr && mode == "linear";
  const bool exclude = int_attr_or(n, "exclude_outside", 0) != 0;
  if (mode != "nearest" && mode != "linear" && mode != "cubic") refuse("mode \"" + mode + "\"");
  if (text("keep_aspect_ratio_policy", "stretch") != "stretch")
    refuse("with keep_aspect_ratio_policy (OpenVINO's Interpolate has none)");
  if (coord == "half_pixel_symmetric" || coord == "tf_crop_and_resize")
    refuse("with coordinate_transformation_mode " + coord + " (OpenVINO's Interpolate has none)");
  if (mode == "cubic" && (antialias_attr || exclude))
    refuse("cubic with antialias or exclude_outside (OpenVINO's cubic has neither)");
  if (antialias && !exclude)
    refuse(
        "linear with antialias but not exclude_outside: ONNX repeats the edge values in "
        "the widened filter, OpenVINO weighs the in-range ones only");

  const ir::Edge* x = n.inputs.at(0);
  const ir::Type& xt = x->type;
  const bool rank_known = xt.kind == ir::Type::Kind::Tensor && xt.shape.rank_known;
  const auto rank = rank_known ? static_cast<int64_t>(xt.shape.dims.size()) : int64_t{-1};
  bool has_scales = false, has_sizes = false;
  std::optional<std::vector<double>> scales = values_of(n, v10 ? 1 : 2, has_scales);
  std::optional<std::vector<double>> sizes = v10 ? std::nullopt : values_of(n, 3, has_sizes);
  if (has_scales == has_sizes) refuse("needs scales or sizes, one of them");
  if (has_scales && !scales)
    refuse(
        "with scales known only at run time: OpenVINO's output length, trunc(len * (scale + "
        "1e-6)), may differ from ONNX's floor(len * scale), so they are checked");
  std::vector<int64_t> axes = ints_attr_or(n, "axes", {});
  if (axes.empty()) {
    if (!rank_known) refuse("of an input whose rank is not known");
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  for (int64_t& a : axes) {
    if (a < 0 && rank_known) a += rank;
    if (a < 0 || (rank_known && a >= rank)) refuse("with an axis out of the input's rank");
  }
  const std::vector<double>& values = has_scales ? *scales : sizes ? *sizes : std::vector<double>{};
  if (!values.empty() && values.size() != axes.size())
    fail(ErrorKind::InvalidModel, w.where(n), "scales or sizes do not match the axes");
  auto in_dim = [&](int64_t a) -> std::optional<int64_t> {
    if (!rank_known || !xt.shape.dims[static_cast<size_t>(a)].is_known()) return std::nullopt;
    return xt.shape.dims[static_cast<size_t>(a)].value;
  };
  // Each kept axis, with its value, and the directions they go.
  std::vector<int64_t> kept_axes;
  std::vector<double> kept;
  std::set<int> dirs;
  for (size_t i = 0; i < values.size() || (i < axes.size() && values.empty()); ++i) {
    const std::optional<int64_t> in = in_dim(axes[i]);
    if (values.empty()) {  // sizes at run time
      if (antialias) refuse("with antialias and sizes known only at run time");
      kept_axes.push_back(axes[i]);
      continue;
    }
    const double v = values[i];
    if ((has_scales && v == 1.0) || (!has_scales && in && v == static_cast<double>(*in))) continue;
    std::optional<float> s;
    if (has_scales) {
      s = static_cast<float>(v);
      const std::string where = "scale " + float_text(v) + " on axis " + std::to_string(axes[i]);
      if (in && onnx_scaled(*in, *s) == *in)
        refuse("by " + where + " of length " + std::to_string(*in) +
               ": ONNX keeps the length but moves the coordinates, OpenVINO copies the axis");
      if (in && onnx_scaled(*in, *s) != ov_scaled(*in, *s))
        refuse("by " + where + ": OpenVINO's output length trunc(len * (scale + 1e-6)) is " +
               std::to_string(ov_scaled(*in, *s)) + ", ONNX's floor(len * scale) " +
               std::to_string(onnx_scaled(*in, *s)));
      if (!in && !safe_scale(*s))
        refuse("by " + where +
               " of a length not known: OpenVINO's output length, trunc(len * "
               "(scale + 1e-6)), may differ from ONNX's floor(len * scale)");
      const double width = in ? static_cast<double>(*in) * v : 0.0;
      if (coord == "align_corners" && (in ? width != std::floor(width) : v != std::floor(v)))
        refuse("by " + where +
               " with align_corners: ONNX divides by len * scale, OpenVINO by "
               "the output length");
    } else if (in && *in > 0) {
      s = static_cast<float>(v / static_cast<double>(*in));
    }
    if (antialias && !s) refuse("with antialias and an input length not known");
    std::optional<int64_t> out;
    if (!has_scales) out = static_cast<int64_t>(v);
    if (has_scales && in) out = onnx_scaled(*in, static_cast<float>(v));
    if (coord == "pytorch_half_pixel" && (mode == "cubic" || antialias) && out.value_or(1) == 1)
      refuse(std::string("cubic or antialiased with pytorch_half_pixel and an output length ") +
             (out ? "of 1" : "not known") + ": there ONNX's coordinate is -0.5, OpenVINO's 0");
    if (s) dirs.insert(*s < 1.0f ? -1 : 1);
    kept_axes.push_back(axes[i]);
    kept.push_back(v);
  }
  if (dirs.count(-1) && dirs.count(1) && antialias)
    refuse(
        "with antialias on axes both down- and upsampled: OpenVINO narrows the linear filter "
        "of the upsampled axes by their scale, ONNX keeps it");
  if (!dirs.count(-1)) antialias = false;  // no effect in either without downsampling

  const std::string name = layer_name(n);
  const ir::Edge* target_edge = n.inputs[has_scales ? (v10 ? 1 : 2) : 3];
  PortRef target;
  if (kept_axes.empty()) {  // nothing moves: resize the first axis onto itself
    kept_axes.push_back(axes.empty() ? 0 : axes[0]);
    kept.push_back(has_scales ? 1.0 : 0.0);
    if (!has_scales) {
      const std::optional<int64_t> in = in_dim(kept_axes[0]);
      kept[0] = static_cast<double>(in.value_or(0));
    }
  }
  if (values.empty()) {
    target = w.source(target_edge);
  } else if (has_scales) {
    std::vector<float> f(kept.begin(), kept.end());
    target =
        w.constant(Tensor::from_vector(ElemType::Float, Dims{static_cast<int64_t>(f.size())}, f),
                   name + "/scales");
  } else {
    target = w.const_i64(std::vector<int64_t>(kept.begin(), kept.end()), name + "/sizes");
  }
  std::string ov_mode = mode;
  if (mode == "linear") {
    std::vector<int64_t> all, spatial;
    for (int64_t d = 0; d < rank; ++d) {
      all.push_back(d);
      if (d >= 2) spatial.push_back(d);
    }
    const bool onnx_axes = rank >= 2 && (kept_axes == all || (rank >= 4 && kept_axes == spatial));
    ov_mode = onnx_axes && !antialias ? "linear_onnx" : "linear";
  }
  const std::string pads = list_text(std::vector<int64_t>(rank_known ? rank : 1, 0));
  w.op("Interpolate", "opset11", name,
       {w.source(x), target, w.const_i64(kept_axes, name + "/axes")}, out0(w, n),
       {{"mode", ov_mode},
        {"shape_calculation_mode", has_scales ? "scales" : "sizes"},
        {"coordinate_transformation_mode", coord},
        {"nearest_mode", nearest},
        {"antialias", antialias ? "true" : "false"},
        {"pads_begin", pads},
        {"pads_end", pads},
        {"cube_coeff", float_text(n.attr("cubic_coeff_a") ? n.attr("cubic_coeff_a")->f : -0.75)}});
}

}  // namespace

OpFamily interpolate_family() {
  return {{{"Interpolate", "1 4 11", map_interpolate}},
          {{"Resize", "Interpolate-11", write_resize}}};
}

}  // namespace bough::openvino
