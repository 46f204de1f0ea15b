// Every conformance model loads; writing it back and reading it again gives the same IR.
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "ir/printer.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

TEST(OnnxRoundTrip, EveryConformanceModel) {
  std::string root = test::conformance_dir();
  if (root.empty()) GTEST_SKIP() << "no conformance data found";
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "model.onnx")) models.push_back(e.path() / "model.onnx");
  std::sort(models.begin(), models.end());
  ASSERT_GT(models.size(), 900u);
  size_t checked = 0;
  for (const fs::path& path : models) {
    std::unique_ptr<ir::Model> first;
    try {
      first = onnx::read_model_file(path.string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    std::string printed = ir::print_model(*first);
    std::string bytes = onnx::write_model_bytes(*first);
    auto second = onnx::read_model_bytes(bytes, path.string(), path.parent_path().string());
    EXPECT_EQ(printed, ir::print_model(*second)) << path;
    // Writing is stable: the second write gives the same bytes as the first.
    EXPECT_EQ(bytes, onnx::write_model_bytes(*second)) << path;
    ++checked;
  }
  EXPECT_EQ(checked, models.size());
}

}  // namespace
}  // namespace bough
