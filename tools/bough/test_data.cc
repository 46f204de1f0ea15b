// bough test-data [--quiet] [--optimize none|basic|all] DIR... — run folders in the ONNX
// backend-test layout and compare outputs.
#include "exec/test_data.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "bough/error.h"
#include "commands.h"
#include "inputs.h"

namespace bough::cli {

namespace fs = std::filesystem;

namespace {

enum class Outcome { Pass, Fail, Skip };

Outcome run_test(const fs::path& dir, const SessionOptions& options, std::string* why) {
  *why = check_test_data(Model::load((dir / "model.onnx").string()), dir, options);
  return why->empty() ? Outcome::Pass : Outcome::Fail;
}

}  // namespace

int cmd_test_data(const Args& args) {
  std::vector<fs::path> tests;
  bool quiet = false;
  SessionOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--quiet" || a == "-q") {
      quiet = true;
      continue;
    }
    if (a == "--optimize") {
      if (i + 1 < args.size() && parse_optimization(args[++i], &options.optimization)) continue;
      std::fprintf(stderr, "bough test-data: --optimize takes none, basic or all\n");
      return kExitUsage;
    }
    fs::path p(a);
    std::error_code ec;
    if (fs::exists(p / "model.onnx", ec)) {
      tests.push_back(p);
    } else if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(p, ec))
        if (fs::exists(e.path() / "model.onnx")) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      tests.insert(tests.end(), found.begin(), found.end());
    } else {
      std::fprintf(stderr, "bough test-data: %s is not a test folder\n", a.c_str());
      return kExitUsage;
    }
  }
  if (tests.empty()) {
    std::fprintf(stderr, "usage: bough test-data [--quiet] [--optimize LEVEL] DIR...\n");
    return kExitUsage;
  }
  int passed = 0, failed = 0, skipped = 0;
  for (const fs::path& dir : tests) {
    std::string name = dir.filename().string(), why;
    Outcome outcome;
    try {
      outcome = run_test(dir, options, &why);
    } catch (const Error& e) {
      outcome = e.kind() == ErrorKind::Unsupported ? Outcome::Skip : Outcome::Fail;
      why = e.what();
    } catch (const std::exception& e) {
      outcome = Outcome::Fail;
      why = e.what();
    }
    switch (outcome) {
      case Outcome::Pass:
        ++passed;
        if (!quiet) std::printf("PASS %s\n", name.c_str());
        break;
      case Outcome::Fail:
        ++failed;
        std::printf("FAIL %s: %s\n", name.c_str(), why.c_str());
        break;
      case Outcome::Skip:
        ++skipped;
        if (!quiet) std::printf("SKIP %s: %s\n", name.c_str(), why.c_str());
        break;
    }
    std::fflush(stdout);
  }
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? kExitInvalid : kExitOk;
}

}  // namespace bough::cli
