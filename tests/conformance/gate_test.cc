// The conformance gate fails when nothing was checked: tests/conformance/check_manifest.sh
// and scripts/update-manifest, with the real CLI, against a small suite of real ONNX
// backend tests (symlinked from the conformance folder) and a small manifest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

// Quick real tests that pass (all in passing.txt), and one more that the small manifest
// lists but the small suite leaves out.
const std::vector<std::string> kPresent = {"test_abs", "test_add", "test_relu"};
const std::string kRemoved = "test_neg";

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::string lines(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += n + "\n";
  return s;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The scripts read these; the tests set what they need and nothing leaks in from outside.
const std::string kCleanEnv =
    "env -u BOUGH_SKIP_CONFORMANCE -u BOUGH_ALLOW_MISSING_CONFORMANCE -u BOUGH_MANIFEST "
    "-u BOUGH_CONFORMANCE_DIR -u BOUGH_CLI ";

std::string check_script() { return test::source_dir() + "/tests/conformance/check_manifest.sh"; }
std::string update_script() { return test::source_dir() + "/scripts/update-manifest"; }

// Writes a stand-in CLI that prints PASS for every present test, then crashes before the
// summary line.
std::string crashing_cli(const fs::path& dir) {
  fs::path cli = dir / "crashing-cli";
  std::string script = "#!/bin/sh\n";
  for (const std::string& n : kPresent) script += "echo 'PASS " + n + "'\n";
  write_text(cli, script + "kill -SEGV $$\n");
  fs::permissions(cli, fs::perms::owner_all);
  return cli.string();
}

// A scratch folder with suite/ holding symlinks to kPresent from the real suite.
class ConformanceGate : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string real = test::conformance_dir();
    if (real.empty()) GTEST_SKIP() << "no conformance data found";
    for (const std::string& n : kPresent)
      if (!fs::is_directory(fs::path(real) / n)) GTEST_SKIP() << n << " is not in " << real;
    ASSERT_TRUE(fs::is_directory(fs::path(real) / kRemoved)) << kRemoved << " is not in " << real;
    root_ = test::scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    suite_ = root_ / "suite";
    fs::create_directories(suite_);
    for (const std::string& n : kPresent)
      fs::create_directory_symlink(fs::path(real) / n, suite_ / n);
  }

  // Adds suite/NAME with a real model but no test data sets.
  void add_test_without_data(const std::string& name) {
    fs::create_directories(suite_ / name);
    fs::create_symlink(fs::path(test::conformance_dir()) / "test_abs" / "model.onnx",
                       suite_ / name / "model.onnx");
  }

  // Runs check_manifest.sh on the small suite, with a manifest listing `names` as its
  // second argument; `env` adds variables (VAR=value ...).
  int check(const std::vector<std::string>& names, std::string* out, const std::string& env = "",
            const std::string& cli = test::cli_path()) {
    fs::path manifest = root_ / "manifest.txt";
    write_text(manifest, lines(names));
    return test::run_command(kCleanEnv + env + " BOUGH_CONFORMANCE_DIR=" + quote(suite_.string()) +
                                 " " + quote(check_script()) + " " + quote(cli) + " " +
                                 quote(manifest.string()),
                             out);
  }

  fs::path root_, suite_;
};

TEST_F(ConformanceGate, PassesWhenEveryListedTestPasses) {
  std::string out;
  EXPECT_EQ(check(kPresent, &out), 0) << out;
  EXPECT_TRUE(contains(out, "3 passed, 0 failed, 0 skipped")) << out;
  EXPECT_TRUE(contains(out, "manifest: 3 listed, 0 regressed, 0 missing from the suite")) << out;
}

TEST_F(ConformanceGate, FailsWhenAListedTestIsMissingFromTheSuite) {
  std::vector<std::string> listed = kPresent;
  listed.push_back(kRemoved);
  std::string out;
  EXPECT_EQ(check(listed, &out), 1) << out;
  EXPECT_TRUE(contains(out, "MISSING: " + kRemoved + ": listed in the manifest")) << out;
  EXPECT_TRUE(contains(out, "conformance FAILED: 1 listed tests are missing")) << out;
}

// An older suite (libonnx-testdata) lacks newer tests: allowed only when asked for.
TEST_F(ConformanceGate, MissingTestsAllowedOnlyExplicitly) {
  std::vector<std::string> listed = kPresent;
  listed.push_back(kRemoved);
  std::string out;
  EXPECT_EQ(check(listed, &out, "BOUGH_ALLOW_MISSING_CONFORMANCE=1"), 0) << out;
  EXPECT_TRUE(contains(out, "MISSING: " + kRemoved)) << out;
  EXPECT_TRUE(contains(out, "1 listed tests not checked")) << out;
}

// A random model's PASS line goes on with how it was checked ("PASS test_bernoulli_seed
// (checked by distribution: ...)"): the gate and update-manifest count it as passed.
TEST_F(ConformanceGate, CountsARandomTestCheckedByDistribution) {
  const std::string random = "test_bernoulli_seed";
  const fs::path real = fs::path(test::conformance_dir()) / random;
  if (!fs::is_directory(real)) GTEST_SKIP() << random << " is not in the suite";
  fs::create_directory_symlink(real, suite_ / random);
  std::vector<std::string> listed = kPresent;
  listed.push_back(random);
  std::string out;
  EXPECT_EQ(check(listed, &out), 0) << out;
  EXPECT_TRUE(contains(out, "manifest: 4 listed, 0 regressed, 0 missing from the suite, 0 passing"))
      << out;
  fs::path manifest = root_ / "updated.txt";
  EXPECT_EQ(
      test::run_command(kCleanEnv + "BOUGH_MANIFEST=" + quote(manifest.string()) +
                            " BOUGH_CONFORMANCE_DIR=" + quote(suite_.string()) +
                            " BOUGH_CLI=" + quote(test::cli_path()) + " " + quote(update_script()),
                        &out),
      0)
      << out;
  EXPECT_EQ(read_text(manifest), lines({"test_abs", "test_add", random, "test_relu"})) << out;
}

TEST_F(ConformanceGate, FailsWhenAListedTestHasNoData) {
  add_test_without_data("test_nodata");
  std::vector<std::string> listed = kPresent;
  listed.push_back("test_nodata");
  std::string out;
  EXPECT_EQ(check(listed, &out), 1) << out;
  EXPECT_TRUE(contains(out, "REGRESSION: test_nodata: FAIL test_nodata: no test data sets")) << out;
}

TEST_F(ConformanceGate, FailsWhenTheRunDoesNotFinish) {
  std::string out;
  EXPECT_EQ(check(kPresent, &out, "", crashing_cli(root_)), 1) << out;
  EXPECT_TRUE(contains(out, "conformance FAILED: bough test-data did not finish")) << out;
}

TEST_F(ConformanceGate, FailsOnAnEmptyManifest) {
  std::string out;
  EXPECT_EQ(check({}, &out), 1) << out;
  EXPECT_TRUE(contains(out, "lists no tests")) << out;
}

// Without a second argument the manifest is $BOUGH_MANIFEST (the default, passing.txt,
// would fail here: most of its tests are not in the small suite).
TEST_F(ConformanceGate, TakesTheManifestFromTheEnvironment) {
  fs::path manifest = root_ / "env-manifest.txt";
  write_text(manifest, lines(kPresent));
  std::string out;
  EXPECT_EQ(test::run_command(kCleanEnv + "BOUGH_MANIFEST=" + quote(manifest.string()) +
                                  " BOUGH_CONFORMANCE_DIR=" + quote(suite_.string()) + " " +
                                  quote(check_script()) + " " + quote(test::cli_path()),
                              &out),
            0)
      << out;
  EXPECT_TRUE(contains(out, "manifest: 3 listed")) << out;
}

// No suite at all: a failure, unless the skip is explicit (77, which ctest shows as a skip).
TEST(ConformanceGateNoSuite, FailsUnlessSkippedExplicitly) {
  fs::path none = fs::path(test::scratch_dir("gate_no_suite")) / "none";
  std::string run = " BOUGH_CONFORMANCE_DIR=" + quote(none.string()) + " " + quote(check_script()) +
                    " " + quote(test::cli_path());
  std::string out;
  EXPECT_EQ(test::run_command(kCleanEnv + run, &out), 1) << out;
  EXPECT_TRUE(contains(out, "conformance FAILED: no conformance data found")) << out;
  EXPECT_EQ(test::run_command(kCleanEnv + "BOUGH_SKIP_CONFORMANCE=1" + run, &out), 77) << out;
  EXPECT_TRUE(contains(out, "conformance SKIPPED")) << out;
}

// scripts/update-manifest, pointed at a scratch manifest through BOUGH_MANIFEST.
class UpdateManifest : public ConformanceGate {
 protected:
  int update(const std::string& suite, const std::string& cli, std::string* out) {
    return test::run_command(kCleanEnv + "BOUGH_MANIFEST=" + quote(manifest().string()) +
                                 " BOUGH_CONFORMANCE_DIR=" + quote(suite) +
                                 " BOUGH_CLI=" + quote(cli) + " " + quote(update_script()),
                             out);
  }
  fs::path manifest() const { return root_ / "manifest" / "passing.txt"; }
  void SetUp() override {
    ConformanceGate::SetUp();
    if (IsSkipped()) return;
    fs::create_directories(manifest().parent_path());
    write_text(manifest(), kOld);
  }
  // The manifest's folder holds only the manifest: no temporary file is left behind.
  void expect_alone() {
    EXPECT_EQ(
        std::distance(fs::directory_iterator(manifest().parent_path()), fs::directory_iterator()),
        1);
  }
  const std::string kOld = "test_old\n";
};

TEST_F(UpdateManifest, WritesThePassingTestsOfAFinishedRun) {
  add_test_without_data("test_nodata");  // fails, so the CLI exits 1: a normal run
  std::string out;
  EXPECT_EQ(update(suite_.string(), test::cli_path(), &out), 0) << out;
  EXPECT_EQ(read_text(manifest()), lines(kPresent)) << out;
  expect_alone();
}

TEST_F(UpdateManifest, KeepsTheManifestWhenTheSuiteIsMissing) {
  std::string out;
  EXPECT_NE(update((root_ / "none").string(), test::cli_path(), &out), 0) << out;
  EXPECT_EQ(read_text(manifest()), kOld) << out;
  expect_alone();
}

TEST_F(UpdateManifest, KeepsTheManifestWhenTheRunCrashes) {
  std::string out;
  EXPECT_NE(update(suite_.string(), crashing_cli(root_), &out), 0) << out;
  EXPECT_EQ(read_text(manifest()), kOld) << out;
  expect_alone();
}

}  // namespace
}  // namespace bough
