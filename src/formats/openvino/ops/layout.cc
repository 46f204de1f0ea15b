// Moving data between depth and space, both ways: DepthToSpace-1 (ONNX's DepthToSpace:
// blocks_first is DCR, depth_first CRD) and SpaceToDepth-1 (ONNX's SpaceToDepth is
// blocks_first; depth_first has no ONNX form).
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

}  // namespace

OpFamily layout_family() {
  return {{{"DepthToSpace", "1", map_depth_to_space}, {"SpaceToDepth", "1", map_space_to_depth}},
          {{"DepthToSpace", "DepthToSpace-1", write_depth_to_space},
           {"SpaceToDepth", "SpaceToDepth-1", write_space_to_depth}}};
}

}  // namespace bough::openvino
