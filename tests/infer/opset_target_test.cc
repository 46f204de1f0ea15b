// infer::set_onnx_opset (bough convert --opset N): a model moves to another ai.onnx opset
// only where each node keeps its meaning, else it is refused naming each node in the way
// and left as it was. The operator versions cited are those of the ONNX operator changelog.
#include "infer/opset_target.h"

#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {
namespace {

std::unique_ptr<ir::Model> load(const GraphBuilder& g, int64_t opset) {
  return onnx::read_model_file(
      save_model(make_model(g, opset), scratch_dir("opset_target"), "m.onnx"));
}

// Expects set_onnx_opset to refuse, naming `place` (unless empty) with `text`, and to leave
// the opset.
void expect_refused(ir::Model& m, int64_t opset, const std::string& place,
                    const std::string& text) {
  const int64_t before = m.opset("");
  try {
    infer::set_onnx_opset(m, opset);
    ADD_FAILURE() << "opset " << opset << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    if (!place.empty()) {
      EXPECT_NE(e.message().find(place + ": "), std::string::npos) << e.what();
    }
    EXPECT_NE(e.message().find(text), std::string::npos) << e.what();
  }
  EXPECT_EQ(m.opset(""), before);
}

TEST(OpsetTarget, NodesOfTheSameVersionMove) {
  // Relu and Add are version 14 at opsets 14 and 17 alike.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {3}).input("y", ElemType::Float, {3});
  g.node("Add", {"x", "y"}, {"s"}, "add");
  g.node("Relu", {"s"}, {"z"}, "relu");
  g.output("z", ElemType::Float, {3});
  auto m = load(g, 17);
  infer::set_onnx_opset(*m, 14);
  EXPECT_EQ(m->opset(""), 14);
  // relu([1, -2, 3] + [1, 1, -5]) = [2, 0, 0]
  NamedValues out = Session(Model(std::shared_ptr<ir::Model>(std::move(m))))
                        .run({{"x", f32({3}, {1, -2, 3})}, {"y", f32({3}, {1, 1, -5})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{2, 0, 0}));
}

TEST(OpsetTarget, ASignatureThatChangedIsRefusedAtTheNode) {
  // ReduceSum takes its axes as an input from opset 13; ReduceSum-11 has an attribute.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3});
  g.initializer("axes", Tensor::from_vector(ElemType::Int64, {1}, std::vector<int64_t>{1}));
  g.node("ReduceSum", {"x", "axes"}, {"s"}, "sum");
  g.output("s", ElemType::Float, {2, 1});
  auto m = load(g, 13);
  expect_refused(*m, 11, "main/ReduceSum \"sum\"", "");
}

TEST(OpsetTarget, AChangedMeaningUnderTheSameSignatureIsRefused) {
  // Softmax-11 flattens at `axis`, Softmax-13 works along it: same inputs and attributes.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3});
  g.node("Softmax", {"x"}, {"y"}, "soft");
  g.output("y", ElemType::Float, {2, 3});
  auto m = load(g, 13);
  expect_refused(*m, 12, "main/Softmax \"soft\"", "works along one axis from opset 13");
}

TEST(OpsetTarget, EveryNodeInTheWayIsListedAndUnknownOpsetsRefused) {
  // LayerNormalization first appears in opset 17; Softmax changes at 13. Both are named.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3});
  g.initializer("scale", Tensor::from_vector(ElemType::Float, {3}, std::vector<float>{1, 1, 1}));
  g.node("LayerNormalization", {"x", "scale"}, {"n"}, "norm");
  g.node("Softmax", {"n"}, {"y"}, "soft");
  g.output("y", ElemType::Float, {2, 3});
  auto m = load(g, 17);
  expect_refused(*m, 12, "main/LayerNormalization \"norm\"", "first appears in opset 17");
  expect_refused(*m, 12, "main/Softmax \"soft\"", "works along one axis");
  expect_refused(*m, 999, "", "bough knows ai.onnx opsets 1 to");
}

TEST(OpsetTarget, OlderTrainingDefaultsStayBeforeOpset7) {
  // Dropout-6 and BatchNormalization-6 default to training (is_test = 0); from opset 7 the
  // same nodes are the identity and test-mode normalization.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 1});
  g.initializer("one", Tensor::from_vector(ElemType::Float, {1}, std::vector<float>{1}));
  g.node("Dropout", {"x"}, {"d"}, "drop");
  g.node("BatchNormalization", {"d", "one", "one", "one", "one"}, {"y"}, "norm");
  g.output("y", ElemType::Float, {2, 1});
  auto m = load(g, 6);
  expect_refused(*m, 7, "main/Dropout \"drop\"", "is the identity from opset 7");
  expect_refused(*m, 9, "main/BatchNormalization \"norm\"", "in test mode from opset 7");
}

TEST(OpsetTarget, ResizeTfHalfPixelForNNStaysAtResize11) {
  // tf_half_pixel_for_nn exists in Resize-11 alone (opsets 11 and 12).
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 1, 2});
  g.initializer("roi", Tensor::from_vector(ElemType::Float, {0}, std::vector<float>{}));
  g.initializer("scales",
                Tensor::from_vector(ElemType::Float, {4}, std::vector<float>{1, 1, 1, 2}));
  set_string(g.node("Resize", {"x", "roi", "scales"}, {"y"}, "resize"),
             "coordinate_transformation_mode", "tf_half_pixel_for_nn");
  g.output("y", ElemType::Float, {1, 1, 1, 4});
  auto m = load(g, 11);
  expect_refused(*m, 13, "main/Resize \"resize\"", "exists only in Resize-11");
  infer::set_onnx_opset(*m, 12);
  EXPECT_EQ(m->opset(""), 12);
}

}  // namespace
}  // namespace bough::test
