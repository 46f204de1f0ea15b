// bough test-data [--quiet] [--optimize none|basic|all] DIR... — run folders in the ONNX
// backend-test layout, given or found at any depth under a folder given, and compare outputs.
#include "exec/test_data.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "bough/error.h"
#include "commands.h"
#include "options.h"

namespace bough::cli {

namespace fs = std::filesystem;

namespace {
namespace test_data_op {

enum class Outcome { Pass, Fail, Skip };

Outcome run_test(const fs::path& dir, const SessionOptions& options, std::string* why,
                 std::string* note) {
  *why = check_test_data(Model::load((dir / "model.onnx").string()), dir, options, note);
  return why->empty() ? Outcome::Pass : Outcome::Fail;
}

// A test folder found under a folder given, and its name: its path from that folder.
struct Test {
  fs::path dir;
  std::string name;
};

// The test folders under `root` at any depth (not looking inside a test folder), in path
// order.
std::vector<Test> tests_under(const fs::path& root) {
  std::vector<Test> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code dir_ec;
    if (!it->is_directory(dir_ec) || !fs::exists(it->path() / "model.onnx", dir_ec)) continue;
    found.push_back({it->path(), it->path().lexically_relative(root).string()});
    it.disable_recursion_pending();
  }
  std::sort(found.begin(), found.end(),
            [](const Test& a, const Test& b) { return a.name < b.name; });
  return found;
}

int run_tests(const std::vector<std::string>& folders, bool quiet, const SessionOptions& options) {
  std::vector<Test> tests;
  for (const std::string& a : folders) {
    fs::path p(a);
    std::error_code ec;
    if (fs::exists(p / "model.onnx", ec)) {
      tests.push_back({p, p.filename().string()});
    } else if (fs::is_directory(p, ec)) {
      const std::vector<Test> found = tests_under(p);
      tests.insert(tests.end(), found.begin(), found.end());
    } else {
      return usage_error(a +
                         " is not a test folder (model.onnx and test_data_set_*) or a "
                         "folder of them");
    }
  }
  if (tests.empty()) return usage_error("no test folders found");
  int passed = 0, failed = 0, skipped = 0;
  for (const Test& test : tests) {
    const std::string& name = test.name;
    std::string why, note;
    Outcome outcome;
    try {
      outcome = run_test(test.dir, options, &why, &note);
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
        if (!quiet)
          std::printf("PASS %s%s\n", name.c_str(), note.empty() ? "" : (" (" + note + ")").c_str());
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

}  // namespace test_data_op
}  // namespace

Command add_test_data(CLI::App& root) {
  using namespace test_data_op;
  CLI::App* app = root.add_subcommand(
      "test-data",
      "run ONNX backend-layout test folders and compare their outputs; a folder given is "
      "searched at any depth");
  struct Options {
    std::vector<std::string> folders;
    bool quiet = false;
    SessionOptions session;
  };
  auto opt = std::make_shared<Options>();
  app->add_option("DIR", opt->folders,
                  "a test folder (model.onnx, test_data_set_*/) or a folder holding them at any "
                  "depth")
      ->required();
  app->add_flag("-q,--quiet", opt->quiet, "print only the failures and the totals");
  add_optimization_option(app, &opt->session.optimization);
  return {app, [opt] { return run_tests(opt->folders, opt->quiet, opt->session); }};
}

}  // namespace bough::cli
