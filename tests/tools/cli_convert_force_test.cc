// `bough convert` writes over an existing OUT (or the .bin of an .xml OUT) only with --force,
// as `run --output-dir` and `show` do.
#include <gtest/gtest.h>

#include <fstream>

#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

TEST(ConvertForce, AnExistingOutIsReplacedOnlyWithForce) {
  const std::string dir = test::scratch_dir("cli_convert_force");
  const std::string in = test::shell_quoted(test::add_model(dir));
  const std::string onnx = dir + "/o.onnx";
  std::string out;
  ASSERT_EQ(test::run_cli("convert " + in + " " + test::shell_quoted(onnx), &out), 0) << out;
  const std::string written = test::read_text(onnx);
  EXPECT_EQ(test::run_cli("convert " + in + " " + test::shell_quoted(onnx), &out), 4) << out;
  EXPECT_NE(out.find(onnx + ": already exists (--force replaces it)"), std::string::npos) << out;
  ASSERT_EQ(test::run_cli("convert " + in + " " + test::shell_quoted(onnx) + " --force", &out), 0)
      << out;
  EXPECT_EQ(test::read_text(onnx), written);
  // An IR's .bin counts too: the .xml is new but its weights would replace a file.
  std::ofstream(dir + "/ir.bin") << "kept";
  EXPECT_EQ(test::run_cli("convert " + in + " " + test::shell_quoted(dir + "/ir.xml"), &out), 4)
      << out;
  EXPECT_NE(out.find(dir + "/ir.bin: already exists (--force replaces it)"), std::string::npos)
      << out;
  EXPECT_EQ(test::read_text(dir + "/ir.bin"), "kept");
  EXPECT_EQ(
      test::run_cli("convert " + in + " " + test::shell_quoted(dir + "/ir.xml") + " --force", &out),
      0)
      << out;
}

}  // namespace
}  // namespace bough
