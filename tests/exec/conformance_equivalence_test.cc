// Every conformance model that passes today, optimized with every pass to a fixed point,
// written as ONNX, reloaded and run without session passes, still matches its test data.
// (The conformance ctest runs the same suite with the default session pipeline.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bough/model.h"
#include "exec/test_data.h"
#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "passes/pass.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

TEST(PassEquivalence, EveryPassingConformanceModelStillPassesOptimized) {
  const std::string suite = test::conformance_dir();
  if (suite.empty()) GTEST_SKIP() << "no conformance suite";
  std::ifstream manifest(test::source_dir() + "/tests/conformance/passing.txt");
  std::vector<const passes::Pass*> every;
  for (const passes::Pass& p : passes::all_passes()) every.push_back(&p);
  const std::string out = test::scratch_dir("pass_equivalence") + "/model.onnx";
  SessionOptions plain;
  plain.optimization = Optimization::none;
  int models = 0, changed = 0;
  for (std::string name; std::getline(manifest, name);) {
    const fs::path dir = fs::path(suite) / name;
    if (name.empty() || !fs::exists(dir / "model.onnx")) continue;
    SCOPED_TRACE(name);
    auto model = read_model_file((dir / "model.onnx").string());
    passes::PipelineReport report = passes::run_pipeline(*model, every);
    ++models;
    for (const passes::PassCount& p : report.passes)
      if (p.changes) {
        ++changed;
        break;
      }
    infer::Validation checked = infer::validate(*model);
    for (const auto& d : checked.diagnostics.all())
      if (d.severity == check::Severity::Error) ADD_FAILURE() << d.place << ": " << d.message;
    onnx::write_model_file(*model, out);
    try {
      EXPECT_EQ(check_test_data(Model::load(out), dir, plain), "");
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_GT(models, 1500);
  EXPECT_GT(changed, 100);  // the passes did something: Constants alone fold in hundreds
  std::printf("%d models, %d changed by the passes\n", models, changed);
}

}  // namespace
}  // namespace bough
