// Moving data between depth and space, both ways: DepthToSpace-1 (ONNX's DepthToSpace:
// blocks_first is DCR, depth_first CRD) and SpaceToDepth-1 (ONNX's SpaceToDepth is
// blocks_first; depth_first has no ONNX form), and ShuffleChannels-1 (read only).
#include <algorithm>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// blocks_first or depth_first, in any letter case.
std::string block_mode(GraphLowering& g, const XmlLayer& l) {
  const std::string mode = enum_data(l, "mode", "");
  if (mode != "blocks_first" && mode != "depth_first")
    fail(ErrorKind::InvalidModel, g.where(l), "mode \"" + mode + "\"");
  return mode;
}

void map_depth_to_space(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string mode = block_mode(g, io.layer);
  ir::Node* n = g.node_to("DepthToSpace", {io.in[0]}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("blocksize", int_data(g, io.layer, "block_size", 1)));
  n->attributes.push_back(string_attr("mode", mode == "blocks_first" ? "DCR" : "CRD"));
}

void write_depth_to_space(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* mode = n.attr("mode");
  const std::string m = mode ? mode->s : "DCR";
  if (m != "DCR" && m != "CRD") fail(ErrorKind::InvalidModel, w.where(n), "mode \"" + m + "\"");
  w.op("DepthToSpace", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"block_size", std::to_string(int_attr_or(n, "blocksize", 1))},
        {"mode", m == "DCR" ? "blocks_first" : "depth_first"}});
}

void map_space_to_depth(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  if (block_mode(g, io.layer) != "blocks_first")
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "SpaceToDepth in depth_first mode (ONNX's SpaceToDepth is blocks_first)");
  g.node_to("SpaceToDepth", {io.in[0]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("blocksize", int_data(g, io.layer, "block_size", 1)));
}

void write_space_to_depth(NetWriter& w, const ir::Node& n) {
  w.op("SpaceToDepth", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"block_size", std::to_string(int_attr_or(n, "blocksize", 1))}, {"mode", "blocks_first"}});
}

// ShuffleChannels-1 splits `axis` into [group, C / group], swaps the two and merges them
// again; with no ONNX form of its own, that is a Reshape, Transpose and Reshape, for which
// the input's dims must be known.
void map_shuffle_channels(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const XmlLayer& l = io.layer;
  const ir::Shape& x = l.inputs.at(0).shape;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : x.dims) dims.push_back(d.is_known() ? d.value : -1);
  if (!x.rank_known || std::count(dims.begin(), dims.end(), -1) > 0)
    fail(ErrorKind::Unsupported, g.where(l), "ShuffleChannels of dims not all known");
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = int_data(g, l, "axis", 1);
  if (axis < 0) axis += rank;
  const int64_t group = int_data(g, l, "group", 1);
  if (axis < 0 || axis >= rank || group < 1 || dims[static_cast<size_t>(axis)] % group != 0)
    fail(ErrorKind::InvalidModel, g.where(l), "axis and group do not fit the input");
  int64_t before = 1, after = 1;
  for (int64_t i = 0; i < axis; ++i) before *= dims[static_cast<size_t>(i)];
  for (int64_t i = axis + 1; i < rank; ++i) after *= dims[static_cast<size_t>(i)];
  const std::string& name = l.name;
  ir::Edge* split = g.node(
      "Reshape",
      {io.in[0],
       g.constant(i64_tensor({before, group, dims[static_cast<size_t>(axis)] / group, after}),
                  name + "/split_shape")},
      name + "/split");
  ir::Edge* swapped = g.node("Transpose", {split}, name + "/swap", ints_attr("perm", {0, 2, 1, 3}));
  g.node_to("Reshape", {swapped, g.constant(i64_tensor(dims), name + "/shape")}, {io.out[0]}, name);
}

}  // namespace

OpFamily layout_family() {
  return {{{"DepthToSpace", "1", map_depth_to_space},
           {"SpaceToDepth", "1", map_space_to_depth},
           {"ShuffleChannels", "1", map_shuffle_channels}},
          {{"DepthToSpace", "DepthToSpace-1", write_depth_to_space},
           {"SpaceToDepth", "SpaceToDepth-1", write_space_to_depth}}};
}

}  // namespace bough::openvino
