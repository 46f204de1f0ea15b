// CTCGreedyDecoderSeqLen-6, both ways, as the org.openvinotoolkit CTCGreedyDecoderSeqLen that
// bough runs (ops/openvino/ctc_greedy_decoder_seq_len.cc; ONNX has no operator for it, and no
// exact lowering: the merge of repeats looks at the step before, blanks included, and the
// emitted classes are packed to the front of each row). merge_repeated (default true) and
// classes_index_type / sequence_length_type ("i32" by default, or "i64") become attributes,
// the types as ONNX element type codes; blank_index stays an optional input (C - 1 without).
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

int64_t index_type(GraphLowering& g, const XmlLayer& l, const char* key) {
  const std::string t = enum_data(l, key, "i32");
  if (t != "i32" && t != "i64")
    fail(ErrorKind::InvalidModel, g.where(l), std::string(key) + " \"" + t + "\" (i32 or i64)");
  return static_cast<int64_t>(t == "i32" ? ElemType::Int32 : ElemType::Int64);
}

void map_ctc_greedy_decoder_seq_len(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.size() < 2 || io.in.size() > 3 || io.out.size() != 2)
    fail(ErrorKind::InvalidModel, g.where(l),
         "CTCGreedyDecoderSeqLen takes 2 or 3 inputs and gives 2 outputs");
  ir::Node* n = g.node_to("CTCGreedyDecoderSeqLen", io.in, io.out, l.name);
  n->domain = kOpenVinoDomain;
  n->attributes.push_back(int_attr("merge_repeated", flag(l, "merge_repeated", true) ? 1 : 0));
  n->attributes.push_back(int_attr("classes_index_type", index_type(g, l, "classes_index_type")));
  n->attributes.push_back(
      int_attr("sequence_length_type", index_type(g, l, "sequence_length_type")));
}

// Output k's port: as the value says, with the type the attribute gives when it says none.
XmlPort output_port(const ir::Node& n, size_t k, const char* type_attr) {
  XmlPort p = NetWriter::port_of(k < n.outputs.size() ? n.outputs[k] : nullptr);
  if (!p.elem) {
    p.elem =
        static_cast<ElemType>(int_attr_or(n, type_attr, static_cast<int64_t>(ElemType::Int32)));
    p.shape = ir::Shape::of(std::vector<ir::Dim>(k == 0 ? 2 : 1, ir::Dim::unknown()));
  }
  return p;
}

void write_ctc_greedy_decoder_seq_len(NetWriter& w, const ir::Node& n) {
  auto type_text = [&](const char* attr) {
    return int_attr_or(n, attr, static_cast<int64_t>(ElemType::Int32)) ==
                   static_cast<int64_t>(ElemType::Int64)
               ? "i64"
               : "i32";
  };
  XmlLayer l;
  l.name = layer_name(n);
  l.type = "CTCGreedyDecoderSeqLen";
  l.version = "opset6";
  l.data = {{"merge_repeated", int_attr_or(n, "merge_repeated", 1) != 0 ? "true" : "false"},
            {"classes_index_type", type_text("classes_index_type")},
            {"sequence_length_type", type_text("sequence_length_type")}};
  l.outputs = {output_port(n, 0, "classes_index_type"), output_port(n, 1, "sequence_length_type")};
  const std::vector<PortRef> ins = sources(w, n);
  const int64_t id = w.add(std::move(l), ins);
  for (size_t k = 0; k < 2 && k < n.outputs.size(); ++k)
    if (n.outputs[k]) w.bind(n.outputs[k], {id, static_cast<int64_t>(ins.size() + k)});
}

}  // namespace

OpFamily ctc_family() {
  return {{{"CTCGreedyDecoderSeqLen", "6", map_ctc_greedy_decoder_seq_len}},
          {{"org.openvinotoolkit:CTCGreedyDecoderSeqLen", "CTCGreedyDecoderSeqLen-6",
            write_ctc_greedy_decoder_seq_len}}};
}

}  // namespace bough::openvino
