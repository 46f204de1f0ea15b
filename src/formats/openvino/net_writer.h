// Building one XmlNet (a graph or a body) from an ir::Graph: layers get consecutive ids,
// input ports come first and output ports after them, as OpenVINO numbers them.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/openvino/xml_net.h"
#include "ir/graph.h"

namespace bough::openvino {

struct WriterContext {
  std::string bin;
  std::unordered_map<std::string, uint64_t> blobs;  // content -> offset in `bin`
  int64_t opset = 0;                                // the model's ONNX opset
};

// An output port of a layer.
struct PortRef {
  int64_t layer = -1;
  int64_t port = -1;
};

class NetWriter {
 public:
  NetWriter(WriterContext& ctx, XmlNet* net, std::string where)
      : ctx_(ctx), net_(net), where_(std::move(where)) {}

  // Writes the nodes of `g` and a Result for each output, in order; returns the Results' ids.
  // Inputs and captures must be bound first.
  std::vector<int64_t> write_graph(const ir::Graph& g);

  void bind(const ir::Edge* e, PortRef p) { ports_[e] = p; }
  // Where `e` comes from; an initializer becomes a Const the first time it is read.
  PortRef source(const ir::Edge* e);
  // Adds `l` reading `ins`: sets its id and port ids (outputs after inputs) and its edges.
  // Returns its id; its outputs are PortRef{id, ins.size() + k}.
  int64_t add(XmlLayer l, const std::vector<PortRef>& ins);
  // A layer of `type` (opset `version`) with one output typed like `out` (may be nullptr).
  PortRef op(const std::string& type, const std::string& version, const std::string& name,
             const std::vector<PortRef>& ins, const ir::Edge* out,
             std::map<std::string, std::string> data = {});
  // A Const holding `t`; with `u1`, a uint8 `t` of 0s and 1s is written as OpenVINO's u1.
  PortRef constant(const Tensor& t, const std::string& name, bool u1 = false);
  PortRef const_i64(const std::vector<int64_t>& v, const std::string& name);
  // A Parameter for `e`. A body Parameter whose type is unknown is written as OpenVINO's
  // dynamic type (element_type "dynamic", shape "..."); a graph input needs at least its
  // element type.
  PortRef parameter(const ir::Edge* e, bool require_type = true);
  int64_t result(PortRef p, const std::string& name);

  static XmlPort port_of(const ir::Edge* e);
  int64_t opset() const { return ctx_.opset; }
  WriterContext& context() const { return ctx_; }
  std::string where(const ir::Node& n) const { return where_ + "/" + n.label(); }
  XmlPort& output_port(PortRef p) const;

 private:
  WriterContext& ctx_;
  XmlNet* net_;
  std::string where_;
  std::unordered_map<const ir::Edge*, PortRef> ports_;
};

// ONNX node -> OpenVINO layers, through the table (op_table.h); If, Loop and Scan in
// body_writer.cc.
void write_node(NetWriter& w, const ir::Node& n);
void write_if(NetWriter& w, const ir::Node& n);
void write_loop(NetWriter& w, const ir::Node& n);
void write_scan(NetWriter& w, const ir::Node& n);

}  // namespace bough::openvino
