// An operator ONNX Runtime registers in the default domain without ONNX defining it
// (SimplifiedLayerNormalization): the model checks with a warning that says so, and runs.
#include "infer/check_util.h"

namespace bough::test {
namespace {

GraphBuilder rms_norm_graph() {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 2}).input("scale", ElemType::Float, {2});
  g.output("y", ElemType::Float, {2, 2});
  g.node("SimplifiedLayerNormalization", {"x", "scale"}, {"y"}, "rms");
  return g;
}

TEST(RuntimeOperators, SimplifiedLayerNormalizationChecksWithAWarning) {
  const check::Diagnostics d = check_graph(rms_norm_graph());
  EXPECT_TRUE(is_valid(d));
  ASSERT_EQ(d.warnings(), 1u);
  EXPECT_EQ(d.all()[0].place, "main/SimplifiedLayerNormalization \"rms\"");
  EXPECT_NE(d.all()[0].message.find("not an ONNX operator but ONNX Runtime's"), std::string::npos)
      << d.all()[0].message;
}

TEST(RuntimeOperators, ASpecOperatorHasNoSuchWarning) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 2}).input("scale", ElemType::Float, {2});
  g.output("y", ElemType::Float, {2, 2});
  g.node("LayerNormalization", {"x", "scale"}, {"y"}, "ln");
  const check::Diagnostics d = check_graph(g);
  EXPECT_TRUE(is_valid(d));
  EXPECT_EQ(d.warnings(), 0u);
}

}  // namespace
}  // namespace bough::test
