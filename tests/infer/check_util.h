// Helpers for the checker's tests: build a model with tests/model_builder.h, save it, read it
// back with the real ONNX reader, check it as sessions and `bough check` do (structure, then
// types), and look for one diagnostic by place and text.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {

inline check::Diagnostics check_proto(const onnxpb::ModelProto& m,
                                      const check::CheckOptions& options = {}) {
  std::string path = save_model(m, scratch_dir("check"), "m.onnx");
  infer::ValidateOptions validate;
  validate.check = options;
  return infer::validate(*onnx::read_model_file(path), validate).diagnostics;
}

inline check::Diagnostics check_graph(const GraphBuilder& g, int64_t opset = 17) {
  return check_proto(make_model(g, opset));
}

// Passes when some error has exactly `place` and a message containing `text`.
inline testing::AssertionResult has_error(const check::Diagnostics& d, const std::string& place,
                                          const std::string& text) {
  for (const auto& x : d.all())
    if (x.severity == check::Severity::Error && x.place == place &&
        x.message.find(text) != std::string::npos)
      return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "no error at '" << place << "' containing '" << text << "' among:\n"
         << check::render_text(d, "m.onnx");
}

inline testing::AssertionResult is_valid(const check::Diagnostics& d) {
  if (!d.has_errors()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << check::render_text(d, "m.onnx");
}

// Declares output `index` of `g` as seq(tensor(elem)) or optional(tensor(elem)).
inline void make_output_sequence(GraphBuilder& g, int index, ElemType elem) {
  auto* t = g.mutable_proto().mutable_output(index)->mutable_type();
  t->Clear();
  t->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(elem));
}
inline void make_output_optional(GraphBuilder& g, int index, ElemType elem) {
  auto* t = g.mutable_proto().mutable_output(index)->mutable_type();
  t->Clear();
  t->mutable_optional_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(elem));
}
// Makes dim `dim` of output `index` the symbol `name`.
inline void set_output_symbol(GraphBuilder& g, int index, int dim, const std::string& name) {
  auto* d = g.mutable_proto()
                .mutable_output(index)
                ->mutable_type()
                ->mutable_tensor_type()
                ->mutable_shape()
                ->mutable_dim(dim);
  d->Clear();
  d->set_dim_param(name);
}

// A branch graph `name` yielding a constant tensor(elem) of `dims` (an initializer of its own
// through `op`, Identity by default), its output declared as that tensor (without a rank
// unless `ranked`). With op SequenceConstruct or Optional, declare the output's kind with
// make_output_sequence or make_output_optional.
inline GraphBuilder branch(const std::string& name, ElemType elem, Dims64 dims, bool ranked = true,
                           const std::string& op = "Identity") {
  GraphBuilder b(name);
  std::vector<int64_t> shape;
  for (int64_t d : dims) shape.push_back(d < 0 ? 1 : d);
  b.initializer(name + "_k", Tensor::zeros(elem, Dims(std::span<const int64_t>(shape))));
  b.node(op, {name + "_k"}, {name + "_y"}, name + "_id");
  b.output(name + "_y", elem, std::move(dims), ranked);
  return b;
}

// main: inputs c (bool) and x (tensor(elem)[2]); If "gate"(c) -> y declared tensor(elem) of
// `dims`.
inline GraphBuilder if_model(const GraphBuilder& then_b, const GraphBuilder& else_b, ElemType elem,
                             Dims64 dims, bool ranked = true) {
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).input("x", elem, {2});
  g.output("y", elem, std::move(dims), ranked);
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(n, "then_branch", then_b);
  set_graph(n, "else_branch", else_b);
  return g;
}

}  // namespace bough::test
