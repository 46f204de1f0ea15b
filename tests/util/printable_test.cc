// util::printable, and the CLI printing a hostile node name through it: control bytes come
// out as \xNN, the message is not cut at a NUL, and UTF-8 names stay as they are.
#include "util/printable.h"

#include <gtest/gtest.h>

#include "model_builder.h"
#include "test_paths.h"
#include "util/json.h"

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

// Bytes that are not UTF-8 (a stray continuation byte, an overlong form, a surrogate, a
// sequence cut short) and the C1 controls (U+009B is a CSI to some terminals) are escaped
// byte by byte; valid multi-byte sequences stay.
TEST(Printable, InvalidUtf8AndC1ControlsBecomeHexEscapes) {
  EXPECT_EQ(util::printable("a\xff"
                            "b"),
            "a\\xffb");
  EXPECT_EQ(util::printable("\x80"), "\\x80");
  EXPECT_EQ(util::printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(util::printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // U+D800
  EXPECT_EQ(util::printable("\xe2\x82"), "\\xe2\\x82");           // cut short
  EXPECT_EQ(util::printable("\xc2\x9b"
                            "2J"),
            "\\xc2\\x9b2J");  // U+009B
  EXPECT_EQ(util::printable("\xc2\xa0\xe2\x82\xac\xf0\x9f\x8c\xb3"),
            "\xc2\xa0\xe2\x82\xac\xf0\x9f\x8c\xb3");  // U+00A0, U+20AC, U+1F333
  EXPECT_EQ(util::printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

// A name is one line: a newline or tab in it is escaped too.
TEST(Printable, NamesCannotBreakLines) {
  EXPECT_EQ(util::printable_name("y\nz\tw\r"), "y\\x0az\\x09w\\x0d");
  EXPECT_EQ(util::printable_name(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(util::printable_name("gr\xc3\xb6\xc3\x9f"
                                 "e"),
            "gr\xc3\xb6\xc3\x9f"
            "e");
}

TEST(JsonString, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(util::json_string("a\xff\xc3\xa9\n\x01"), "\"a\\ufffd\xc3\xa9\\n\\u0001\"");
  EXPECT_EQ(util::json_string("\xe2\x82"), "\"\\ufffd\\ufffd\"");
}

}  // namespace
}  // namespace bough
