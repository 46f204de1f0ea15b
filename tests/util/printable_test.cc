// util::printable, and the CLI printing a hostile node name through it: control bytes come
// out as \xNN, the message is not cut at a NUL, and UTF-8 names stay as they are.
#include "util/printable.h"

#include <gtest/gtest.h>

#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

TEST(Printable, ControlBytesBecomeHexEscapes) {
  EXPECT_EQ(util::printable("plain name_1"), "plain name_1");
  EXPECT_EQ(util::printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(util::printable("\x1b[2J\r\x7f"), "\\x1b[2J\\x0d\\x7f");
  EXPECT_EQ(util::printable("two\nlines\tand a tab"), "two\nlines\tand a tab");
  EXPECT_EQ(util::printable("gr\xc3\xb6\xc3\x9f"
                            "e"),
            "gr\xc3\xb6\xc3\x9f"
            "e");  // UTF-8 "größe"
}

TEST(Printable, CheckAndErrorsShowAHostileNodeNameEscapedAndWhole) {
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Add", {"x", "missing"}, {"y"}, std::string("add\x1b[2J\0tail", 12));
  g.output("y", ElemType::Float, {2});
  const std::string path =
      test::save_model(test::make_model(g), test::scratch_dir("printable"), "m.onnx");
  for (const char* command : {"check ", "run "}) {
    std::string out;
    EXPECT_EQ(test::run_cli(command + path, &out), 1) << out;
    EXPECT_NE(out.find("add\\x1b[2J\\x00tail"), std::string::npos) << out;
    EXPECT_NE(out.find("'missing'"), std::string::npos) << out;  // the rest of the message
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace bough
