// Debian's libonnx-testdata suites beyond `node` (which ctest's conformance_onnx_1_12 runs):
// pytorch-converted, pytorch-operator and simple, through `bough test-data`, against the
// manifest tests/conformance/passing-libonnx-suites.txt. Every test of the three suites
// must be listed and pass, except the two training Gradient tests of `simple`, which bough
// does not run (ai.onnx.preview.training Gradient) and must skip. Skipped (a gtest skip,
// not a pass) when the suites are not installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

const fs::path kSuites = "/usr/share/libonnx-testdata/data";
const char* const kSuiteNames[] = {"pytorch-converted", "pytorch-operator", "simple"};
const std::set<std::string> kAllowedSkips = {"simple/test_gradient_of_add",
                                             "simple/test_gradient_of_add_and_mul"};

std::set<std::string> manifest() {
  std::ifstream in(test::source_dir() + "/tests/conformance/passing-libonnx-suites.txt");
  std::set<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

TEST(LibonnxSuites, EveryTestPassesButTheTrainingGradient) {
  if (!fs::is_directory(kSuites / "simple")) GTEST_SKIP() << kSuites << " is not installed";
  const std::set<std::string> listed = manifest();
  ASSERT_FALSE(listed.empty());
  for (const char* suite : kSuiteNames) {
    SCOPED_TRACE(suite);
    std::string out;
    test::run_cli("test-data " + (kSuites / suite).string(), &out);
    for (const auto& entry : fs::directory_iterator(kSuites / suite)) {
      const std::string test = entry.path().filename().string();
      const std::string name = std::string(suite) + "/" + test;
      if (kAllowedSkips.count(name)) {
        EXPECT_NE(out.find("SKIP " + test), std::string::npos) << name;
        continue;
      }
      EXPECT_TRUE(listed.count(name)) << name << " is not in passing-libonnx-suites.txt";
      const bool passed = out.find("PASS " + test + "\n") != std::string::npos ||
                          out.find("PASS " + test + " (") != std::string::npos;
      const size_t at = out.find(" " + test);
      EXPECT_TRUE(passed) << name << ": "
                          << (at == std::string::npos ? "no result" : out.substr(at, 400));
    }
  }
}

}  // namespace
}  // namespace bough
