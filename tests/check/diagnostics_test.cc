// Rendering diagnostics as text and JSON.
#include "check/diagnostics.h"

#include <gtest/gtest.h>

namespace bough::check {
namespace {

TEST(Diagnostics, CountsAndText) {
  Diagnostics d;
  d.error("main/If \"gate\"/then_branch", "an If branch takes no inputs");
  d.warning("", "imports opset ai.onnx 99");
  EXPECT_EQ(d.errors(), 1u);
  EXPECT_EQ(d.warnings(), 1u);
  EXPECT_EQ(render_text(d, "m.onnx"),
            "m.onnx: main/If \"gate\"/then_branch: an If branch takes no inputs\n"
            "m.onnx: warning: imports opset ai.onnx 99\n");
}

TEST(Diagnostics, JsonEscapesNames) {
  Diagnostics d;
  d.error("main/Add \"a\\b\"", "line\nbreak\x01");
  EXPECT_EQ(render_json(d, "m.onnx"),
            "{\"model\": \"m.onnx\", \"valid\": false, \"errors\": 1, \"warnings\": 0, "
            "\"diagnostics\": [\n"
            "  {\"severity\": \"error\", \"kind\": \"invalid\", \"place\": \"main/Add "
            "\\\"a\\\\b\\\"\", \"message\": "
            "\"line\\nbreak\\u0001\"}\n]}\n");
  d.unsupported("main/Frob", "unknown operator Frob");
  d.warning("", "w");
  EXPECT_NE(render_json(d, "m.onnx")
                .find("{\"severity\": \"error\", \"kind\": \"unsupported\", "
                      "\"place\": \"main/Frob\""),
            std::string::npos);
  EXPECT_NE(render_json(d, "m.onnx").find("{\"severity\": \"warning\", \"place\": \"\""),
            std::string::npos);
  EXPECT_EQ(render_json(Diagnostics(), "m.onnx"),
            "{\"model\": \"m.onnx\", \"valid\": true, \"errors\": 0, \"warnings\": 0, "
            "\"diagnostics\": []}\n");
}

}  // namespace
}  // namespace bough::check
