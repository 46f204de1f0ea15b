// Fuzz target: the OpenVINO IR reader on nets whose structure the input decides: which
// layers (every type bough reads, and the bodies of If, Loop and TensorIterator), which ports
// with which ids and dims, which edges, port-map entries and back edges, which attributes and
// Const data. Mutating XML bytes mostly makes text the XML parser refuses; this target reaches
// the reader's structural checks instead. A net that loads is written back as IR and read
// again, then run once on inputs made up from its declared types.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bough/error.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "run_once.h"

namespace {

using Words = std::vector<std::string>;

const Words kVersions = {"opset1", "opset3",  "opset4",  "opset5",  "opset6",
                         "opset8", "opset11", "opset13", "opset15", "experimental"};
const Words kPrecisions = {"FP32", "I64",  "I32", "BOOL",        "U8",     "I8",
                           "FP16", "BF16", "U1",  "UNSPECIFIED", "dynamic"};
const Words kElementTypes = {"f32", "i64", "i32", "boolean", "u8",        "i8",    "f16",
                             "u1",  "u2",  "u4",  "dynamic", "undefined", "string"};
const Words kDims = {"1", "2", "3", "4", "0", "-1", "?", "1..3", "100000000"};
const Words kKeys = {"axis",          "axes",          "auto_broadcast",
                     "shape",         "strides",       "pads_begin",
                     "pads_end",      "dilations",     "auto_pad",
                     "kernel",        "mode",          "keep_dims",
                     "special_zero",  "output_type",   "destination_type",
                     "transpose_a",   "transpose_b",   "begin_mask",
                     "end_mask",      "new_axis_mask", "shrink_axis_mask",
                     "ellipsis_mask", "batch_dims",    "normalize_variance",
                     "eps",           "eps_mode",      "levels",
                     "rounding_type", "group",         "max",
                     "min",           "exclude-pad",   "depth",
                     "reduction_axes"};
const Words kValues = {"0",          "1",
                       "-1",         "2",
                       "3",          "1,1",
                       "0,0",        "2,2",
                       "1,0",        "true",
                       "false",      "numpy",
                       "none",       "pdpd",
                       "explicit",   "same_upper",
                       "SAME_LOWER", "valid",
                       "f32",        "i64",
                       "i32",        "boolean",
                       "",           "nan",
                       "inf",        "-inf",
                       "ceil",       "floor",
                       "ceil_torch", "add",
                       "max",        "inside_sqrt",
                       "100000000",  "-9223372036854775808",
                       "1e39"};

class NetMaker {
 public:
  explicit NetMaker(FuzzedDataProvider& in) : in_(in) {
    for (const bough::openvino::OvOpSupport& op : bough::openvino::openvino_op_support())
      if (!op.reads.empty()) types_.push_back(op.type);
  }

  // A whole <net>; `weights` gets the bytes left once the structure is decided.
  std::string net(std::string* weights) {
    std::string body = layers_and_edges(0);
    *weights = in_.ConsumeRemainingBytesAsString();
    return "<?xml version=\"1.0\"?>\n<net name=\"fuzz\" version=\"" +
           pick({"11", "10", "11", "7"}) + "\">\n" + body + "</net>\n";
  }

 private:
  struct Layer {
    int id;
    int inputs, outputs;
  };

  std::string pick(const Words& words) {
    return words[in_.ConsumeIntegralInRange<size_t>(0, words.size() - 1)];
  }
  int small(int lo, int hi) { return in_.ConsumeIntegralInRange<int>(lo, hi); }

  std::string dims(int max_rank) {
    std::string s;
    for (int k = small(0, max_rank); k > 0; --k) s += "<dim>" + pick(kDims) + "</dim>";
    return s;
  }

  std::string ports(const char* tag, int first_id, int count) {
    std::string s = std::string("<") + tag + ">";
    for (int p = 0; p < count; ++p) {
      // Mostly the serializer's numbering (outputs after inputs), sometimes any id.
      const int id = in_.ConsumeBool() ? first_id + p : small(-1, 8);
      s += "<port id=\"" + std::to_string(id) + "\" precision=\"" + pick(kPrecisions) + "\"";
      if (in_.ConsumeIntegralInRange(0, 7) == 0) s += " names=\"n" + std::to_string(id) + "\"";
      s += ">" + dims(4) + "</port>";
    }
    return s + "</" + tag + ">";
  }

  std::string data_of(const std::string& type) {
    std::string s = "<data";
    if (type == "Parameter" || type == "Const")
      s += " element_type=\"" + pick(kElementTypes) + "\" shape=\"" +
           pick({"", "2", "1,2", "?", "2,?", "...", "0", "3,1"}) + "\"";
    if (type == "Const")
      s += " offset=\"" + std::to_string(small(0, 64)) + "\" size=\"" +
           std::to_string(small(0, 64)) + "\"";
    for (int k = small(0, 3); k > 0; --k) s += " " + pick(kKeys) + "=\"" + pick(kValues) + "\"";
    return s + "/>";
  }

  // An If's (then_port_map, else_port_map), Loop's or TensorIterator's (port_map) map,
  // over a body whose layers have ids up to `body_layers`.
  std::string port_map(const std::string& tag, int inputs, int outputs, int body_layers,
                       bool loop) {
    std::string s = "<" + tag + ">";
    for (int k = small(0, inputs + 1); k > 0; --k) {
      s += "<input external_port_id=\"" + std::to_string(small(-1, inputs)) +
           "\" internal_layer_id=\"" + std::to_string(small(0, body_layers)) + "\"";
      if (in_.ConsumeBool())
        s += " axis=\"" + pick({"0", "1", "-1", "100000000"}) + "\" start=\"" +
             pick({"0", "-1", "1"}) + "\" end=\"" + pick({"-1", "0", "2"}) + "\" stride=\"" +
             pick({"1", "-1", "0", "2"}) + "\" part_size=\"" + pick({"1", "0", "2"}) + "\"";
      if (loop && in_.ConsumeIntegralInRange(0, 3) == 0) s += " purpose=\"current_iteration\"";
      s += "/>";
    }
    for (int k = small(0, outputs + 1); k > 0; --k) {
      s += "<output external_port_id=\"" + std::to_string(small(-1, inputs + outputs)) +
           "\" internal_layer_id=\"" + std::to_string(small(0, body_layers)) + "\"";
      if (in_.ConsumeBool()) s += " axis=\"" + pick({"0", "1", "-1", "100000000"}) + "\"";
      if (loop && in_.ConsumeIntegralInRange(0, 2) == 0) s += " purpose=\"execution_condition\"";
      s += "/>";
    }
    return s + "</" + tag + ">";
  }

  std::string back_edges(int body_layers) {
    std::string s = "<back_edges>";
    for (int k = small(0, 2); k > 0; --k)
      s += "<edge from-layer=\"" + std::to_string(small(0, body_layers)) + "\" from-port=\"" +
           std::to_string(small(0, 3)) + "\" to-layer=\"" + std::to_string(small(0, body_layers)) +
           "\" to-port=\"0\"/>";
    return s + "</back_edges>";
  }

  std::string layers_and_edges(int depth) {
    std::vector<Layer> made;
    std::string layers = "<layers>\n", edges = "<edges>\n";
    const int count = small(1, depth == 0 ? 12 : 5);
    for (int i = 0; i < count && in_.remaining_bytes() > 0; ++i) {
      std::string type;
      switch (small(0, 7)) {
        case 0:
          type = "Parameter";
          break;
        case 1:
          type = "Const";
          break;
        case 2:
          type = "Result";
          break;
        case 3:
          type = depth < 2 ? pick({"If", "Loop", "TensorIterator"}) : "Result";
          break;
        default:
          type = pick(types_);
      }
      const bool source = type == "Parameter" || type == "Const";
      const int inputs = source ? 0 : small(type == "Result" ? 1 : 0, 4);
      const int outputs = type == "Result" ? 0 : small(1, 3);
      // Mostly ids in order; sometimes a repeated or far id.
      const int id = in_.ConsumeIntegralInRange(0, 15) == 0 ? small(0, 20) : i;
      layers += "<layer id=\"" + std::to_string(id) + "\" name=\"l" + std::to_string(i) +
                "\" type=\"" + type + "\" version=\"" + pick(kVersions) + "\">" + data_of(type);
      if (inputs > 0) layers += ports("input", 0, inputs);
      if (outputs > 0) layers += ports("output", inputs, outputs);
      if (type == "If") {
        layers += "<then_body>" + layers_and_edges(depth + 1) + "</then_body>";
        layers += "<else_body>" + layers_and_edges(depth + 1) + "</else_body>";
        layers += port_map("then_port_map", inputs, outputs, 5, false);
        layers += port_map("else_port_map", inputs, outputs, 5, false);
      } else if (type == "Loop" || type == "TensorIterator") {
        layers += "<body>" + layers_and_edges(depth + 1) + "</body>";
        layers += port_map("port_map", inputs, outputs, 5, type == "Loop") + back_edges(5);
      }
      layers += "</layer>\n";
      // Each input fed from an earlier layer's output port (rarely from anywhere).
      for (int p = 0; p < inputs && !made.empty(); ++p) {
        const Layer& from = made[in_.ConsumeIntegralInRange<size_t>(0, made.size() - 1)];
        const bool wild = in_.ConsumeIntegralInRange(0, 15) == 0;
        edges += "<edge from-layer=\"" + std::to_string(wild ? small(0, 20) : from.id) +
                 "\" from-port=\"" +
                 std::to_string(wild ? small(0, 6) : from.inputs + small(0, from.outputs - 1)) +
                 "\" to-layer=\"" + std::to_string(id) + "\" to-port=\"" + std::to_string(p) +
                 "\"/>\n";
      }
      if (outputs > 0) made.push_back({id, inputs, outputs});
    }
    return layers + "</layers>\n" + edges + "</edges>\n";
  }

  FuzzedDataProvider& in_;
  Words types_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string weights;
  const std::string xml = NetMaker(in).net(&weights);
  std::shared_ptr<bough::ir::Model> model;
  try {
    model = bough::openvino::read_model_text(xml, &weights, "fuzz.xml");
  } catch (const bough::Error&) {
    return 0;
  }
  try {
    const bough::openvino::IrFiles again = bough::openvino::write_ir(*model);
    bough::openvino::read_model_text(again.xml, &again.bin, "again.xml");
  } catch (const bough::Error&) {
  }
  bough::fuzz::run_once(bough::Model(model), weights);
  return 0;
}
