// OpenVINO's StridedSlice-1 with constant begin, end and stride, as ONNX's Slice followed by
// a Squeeze and an Unsqueeze. Entry i of begin/end/stride slices the next input axis (a set
// begin_mask / end_mask bit means "from the start" / "to the end"); with its
// shrink_axis_mask bit set it takes the one element at begin[i] and drops the axis; a
// new_axis_mask bit inserts an axis of 1 in the output instead; an ellipsis_mask bit stands
// for the input axes no entry names (which needs the input's rank).
#include <limits>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

namespace {

bool bit(const std::vector<int64_t>& mask, size_t i) { return i < mask.size() && mask[i] != 0; }

// How many input axes the ellipsis stands for (0 without one); nullopt when the input's rank
// is unknown, and the entries after the ellipsis then count their axes from the end.
std::optional<int64_t> ellipsis_axes(GraphLowering& g, const LayerIO& io,
                                     const std::vector<int64_t>& ellipsis,
                                     const std::vector<int64_t>& new_axis, size_t entries) {
  int64_t named = 0, ellipses = 0;
  for (size_t i = 0; i < entries; ++i) {
    if (bit(ellipsis, i))
      ++ellipses;
    else if (!bit(new_axis, i))
      ++named;
  }
  if (ellipses == 0) return 0;
  if (ellipses > 1) fail(ErrorKind::InvalidModel, g.where(io.layer), "more than one ellipsis");
  const ir::Type& t = io.in[0]->type;
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known) return std::nullopt;
  auto rank = static_cast<int64_t>(t.shape.dims.size());
  if (named > rank)
    fail(ErrorKind::InvalidModel, g.where(io.layer),
         "more entries than the input's " + std::to_string(rank) + " axes");
  return rank - named;
}

}  // namespace

void map_strided_slice(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 4);
  const XmlLayer& l = io.layer;
  std::vector<int64_t> begin = const_ints(g, io, 1, "begin");
  std::vector<int64_t> end = const_ints(g, io, 2, "end");
  std::vector<int64_t> stride =
      io.in.size() == 4 ? const_ints(g, io, 3, "stride") : std::vector<int64_t>(begin.size(), 1);
  if (end.size() != begin.size() || stride.size() != begin.size())
    fail(ErrorKind::InvalidModel, g.where(l), "begin, end and stride differ in length");
  const std::vector<int64_t> begin_mask = int_list(g, l, "begin_mask"),
                             end_mask = int_list(g, l, "end_mask"),
                             new_axis = int_list(g, l, "new_axis_mask"),
                             shrink = int_list(g, l, "shrink_axis_mask"),
                             ellipsis = int_list(g, l, "ellipsis_mask");
  const std::optional<int64_t> covered = ellipsis_axes(g, io, ellipsis, new_axis, begin.size());
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(),
                    kMin = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> starts, ends, axes, steps, squeeze, unsqueeze;
  int64_t axis = 0, out = 0;  // the next input axis and output position
  for (size_t i = 0; i < begin.size(); ++i) {
    if (bit(ellipsis, i)) {
      if (covered) {
        axis += *covered;
        out += *covered;
        continue;
      }
      // Unknown rank: the axes after the ellipsis, of the input and of the output, are
      // counted back from the last (ONNX takes negative axes in all three operators).
      axis = out = 0;
      for (size_t j = i + 1; j < begin.size(); ++j) {
        if (!bit(new_axis, j)) --axis;
        if (!bit(shrink, j) || bit(new_axis, j)) --out;
      }
      continue;
    }
    if (bit(new_axis, i)) {
      unsqueeze.push_back(out++);
      continue;
    }
    if (stride[i] == 0) fail(ErrorKind::InvalidModel, g.where(l), "a stride is 0");
    int64_t b = begin[i], e = end[i], s = stride[i];
    if (bit(shrink, i)) {
      if (bit(begin_mask, i)) b = 0;
      e = b == -1 ? kMax : b + 1;
      s = 1;
      squeeze.push_back(axis);
    } else {
      if (bit(begin_mask, i)) b = s > 0 ? 0 : kMax;
      if (bit(end_mask, i)) e = s > 0 ? kMax : kMin;
      ++out;
    }
    starts.push_back(b);
    ends.push_back(e);
    steps.push_back(s);
    axes.push_back(axis++);
  }
  // Slice, Squeeze, Unsqueeze as needed; the last of them makes the layer's output.
  const std::string& name = l.name;
  ir::Edge* v = io.in[0];
  std::vector<std::pair<const char*, std::vector<ir::Edge*>>> steps_to_do;
  if (!axes.empty())
    steps_to_do.push_back({"Slice",
                           {nullptr, g.constant(i64_tensor(starts), name + "/starts"),
                            g.constant(i64_tensor(ends), name + "/ends"),
                            g.constant(i64_tensor(axes), name + "/axes"),
                            g.constant(i64_tensor(steps), name + "/steps")}});
  if (!squeeze.empty())
    steps_to_do.push_back(
        {"Squeeze", {nullptr, g.constant(i64_tensor(squeeze), name + "/shrink_axes")}});
  if (!unsqueeze.empty())
    steps_to_do.push_back(
        {"Unsqueeze", {nullptr, g.constant(i64_tensor(unsqueeze), name + "/new_axes")}});
  if (steps_to_do.empty()) steps_to_do.push_back({"Identity", {nullptr}});
  for (size_t k = 0; k < steps_to_do.size(); ++k) {
    auto& [op, ins] = steps_to_do[k];
    ins[0] = v;
    if (k + 1 == steps_to_do.size())
      g.node_to(op, ins, {io.out[0]}, name);
    else
      v = g.node(op, ins, name + "/" + op);
  }
}

}  // namespace bough::openvino
