// Helpers for the inference tests: inputs whose dims are written as text, and a model inferred
// without help from its declarations (read back by the real ONNX reader, then
// infer::validate), with its output types and errors as text.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"

namespace bough::test {

// Input `name` with dims written as text: a number is a known dim, anything else a symbol.
inline void symbolic_input(GraphBuilder& g, const std::string& name, ElemType t,
                           const std::vector<std::string>& dims) {
  g.input(name, t, Dims64(dims.size(), 1));
  auto* shape = g.mutable_proto()
                    .mutable_input(g.proto().input_size() - 1)
                    ->mutable_type()
                    ->mutable_tensor_type()
                    ->mutable_shape();
  for (size_t k = 0; k < dims.size(); ++k) {
    auto* d = shape->mutable_dim(static_cast<int>(k));
    d->Clear();
    if (!dims[k].empty() && std::isdigit(static_cast<unsigned char>(dims[k][0])))
      d->set_dim_value(std::stoll(dims[k]));
    else
      d->set_dim_param(dims[k]);
  }
}

struct Inferred {
  std::unique_ptr<ir::Model> model;
  infer::Validation v;

  // The type inference gives graph output k, as text.
  std::string type(size_t k) const {
    return ir::to_string(v.types.type_of(model->graph->outputs.at(k)));
  }
  // Whether an error at a place naming `node` says `text`.
  bool refused(const std::string& node, const std::string& text) const {
    for (const auto& d : v.diagnostics.all())
      if (d.severity == check::Severity::Error && d.place.find(node) != std::string::npos &&
          d.message.find(text) != std::string::npos)
        return true;
    return false;
  }
  std::string errors() const {
    std::string all;
    for (const auto& d : v.diagnostics.all())
      if (d.severity == check::Severity::Error) all += d.place + ": " + d.message + "\n";
    return all;
  }
};

// The graph as a model of `opset` (IR version 10 from opset 21, else 8), inferred with its
// declared output types ignored, so that only inference speaks.
inline Inferred infer_model(const GraphBuilder& g, int64_t opset) {
  std::string bytes;
  make_model(g, opset, opset >= 21 ? 10 : 8).SerializeToString(&bytes);
  Inferred r;
  r.model = onnx::read_model_bytes(bytes, "infer_test.onnx", "");
  infer::ValidateOptions options;
  options.infer.refine_with_declarations = false;
  r.v = infer::validate(*r.model, options);
  return r;
}

// One node of `op` named "n" from `ins` to `outs`, which become graph outputs without types.
inline onnxpb::NodeProto& one_node(GraphBuilder& g, const std::string& op,
                                   std::vector<std::string> ins,
                                   const std::vector<std::string>& outs) {
  onnxpb::NodeProto& n = g.node(op, std::move(ins), outs, "n");
  for (const std::string& o : outs) g.output_untyped(o);
  return n;
}

// Expects the graph, as a model of `opset`, refused with an error at node "n" whose message
// contains `text`.
inline void expect_refused(const GraphBuilder& g, int64_t opset, const std::string& text) {
  const Inferred r = infer_model(g, opset);
  EXPECT_TRUE(r.refused("\"n\"", text)) << "no error at node n containing '" << text << "' among:\n"
                                        << r.errors();
}

}  // namespace bough::test
