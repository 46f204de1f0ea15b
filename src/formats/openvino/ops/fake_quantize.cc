// FakeQuantize-1, read as ONNX elementwise nodes (ONNX has no equivalent). OpenVINO's
// reference (reference/fake_quantize.hpp) computes, with every range input broadcast
// against X by auto_broadcast (numpy, or none for equal shapes):
//   x <= min(in_low, in_high)  ->  out_low
//   x >  max(in_low, in_high)  ->  out_high
//   else  round((x - in_low) / (in_high - in_low) * (levels - 1)) / (levels - 1)
//         * (out_high - out_low) + out_low
// with round to nearest, ties to even (std::nearbyint), which is ONNX's Round. The nodes
// below make the same operations in the same order, so that each rounds as OpenVINO's does
// (for bfloat16, OpenVINO computes the middle branch in float; bough rounds each step).
// Written back, they are OpenVINO's elementwise layers; FakeQuantize itself is not written.
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"

namespace bough::openvino {

namespace {

void map_fake_quantize(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 5, 5);
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  if (!l.attr("levels")) fail(ErrorKind::InvalidModel, g.where(l), "no levels");
  const int64_t levels = int_data(g, l, "levels", 0);
  if (levels < 2) fail(ErrorKind::InvalidModel, g.where(l), "levels must be at least 2");
  const std::string mode = enum_data(l, "auto_broadcast", "numpy");
  if (mode != "numpy" && mode != "none")
    fail(ErrorKind::Unsupported, g.where(l), "FakeQuantize with auto_broadcast \"" + mode + "\"");
  const ir::Type& t = io.in[0]->type;
  if (t.kind != ir::Type::Kind::Tensor || !is_float_type(t.elem))
    fail(ErrorKind::Unsupported, g.where(l), "FakeQuantize of a type that is not floating-point");
  std::optional<Tensor> steps = scalar_of(t.elem, static_cast<double>(levels - 1));
  if (!steps)
    fail(ErrorKind::Unsupported, g.where(l),
         "FakeQuantize of type " + std::string(elem_name(t.elem)));
  ir::Edge *x = io.in[0], *in_low = io.in[1], *in_high = io.in[2], *out_low = io.in[3],
           *out_high = io.in[4];
  auto op = [&](const char* type, std::vector<ir::Edge*> ins, const char* what) {
    return g.node(type, std::move(ins), name + "/" + what);
  };
  ir::Edge* below = op("LessOrEqual", {x, op("Min", {in_low, in_high}, "range_min")}, "below");
  ir::Edge* above = op("Greater", {x, op("Max", {in_low, in_high}, "range_max")}, "above");
  ir::Edge* levels_less_one = g.constant(std::move(*steps), name + "/levels_less_one");
  ir::Edge* v =
      op("Div", {op("Sub", {x, in_low}, "shifted"), op("Sub", {in_high, in_low}, "in_range")},
         "fraction");
  v = op("Round", {op("Mul", {v, levels_less_one}, "scaled")}, "level");
  v = op("Div", {v, levels_less_one}, "level_fraction");
  v = op("Mul", {v, op("Sub", {out_high, out_low}, "out_range")}, "out_shifted");
  v = op("Add", {v, out_low}, "quantized");
  ir::Edge* inside = op("Where", {above, out_high, v}, "upper_clamped");
  g.node_to("Where", {below, out_low, inside}, {io.out[0]}, name);
}

}  // namespace

OpFamily fake_quantize_family() { return {{{"FakeQuantize", "1", map_fake_quantize}}, {}}; }

}  // namespace bough::openvino
