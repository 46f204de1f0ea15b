// Untrusted model files go through the public API as a server would take them: load (from a
// path and from bytes), a session, one run on inputs made up from the declared types
// (fuzz/run_once.h). Only bough::Error may come out; a crash, an abort or any other
// exception fails the test. The conformance models (the fuzzers' seed corpus) go through
// whole, cut and flipped.
// tests/fixtures/hostile/ keeps one file per problem fuzzing and review found (each fixed):
// initializers claiming 2^28 strings or 2^39 floats, external data naming a folder,
// 30,000 nested regex groups, integer log-reductions and Shrink leaving the integer range,
// a HannWindow of 2^31 samples (8 GiB; run_once gives sessions a 256 MiB limit), an If
// branch output declared optional_type without its elem_type.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string_view>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
#include "model_builder.h"
#include "run_once.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

// The bytes run_once makes input values from: zero, one, edges of the signed and unsigned
// ranges.
constexpr std::string_view kInputBytes{"\x01\x7f\x80\xff\x00\x10", 6};
// Made from these bytes, a trip count is about 9e18 and the example's Loop runs until a
// limit stops it: a short time limit keeps each such copy short (the fuzzers allow 5 s).
constexpr double kTimeLimitSeconds = 0.25;

// Runs load() (and a session and one run on what it loads); fails the test on anything but
// success or a bough::Error. `what` names the model in the failure.
void expect_only_bough_errors(const std::string& what, const std::function<Model()>& load) {
  try {
    fuzz::run_once(load(), kInputBytes, kTimeLimitSeconds);
  } catch (const Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << what << ": a non-standard exception";
  }
}

void expect_only_bough_errors(const std::string& path) {
  expect_only_bough_errors(path, [&] { return Model::load(path); });
}

// The same through Model::load_bytes (the in-memory path servers and the fuzzers use).
void expect_only_bough_errors_from_bytes(const std::string& name, const std::string& bytes) {
  expect_only_bough_errors(name + " (bytes)", [&] { return Model::load_bytes(bytes, name); });
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(HostileModels, SavedReproducersEndInAnErrorOrARun) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(test::source_dir() + "/tests/fixtures/hostile")) {
    const std::string path = entry.path().string();
    expect_only_bough_errors(path);
    if (entry.path().extension() == ".onnx")
      expect_only_bough_errors_from_bytes(path, read_bytes(path));
    ++files;
  }
  EXPECT_GE(files, 8);
}

// A branch output declared optional_type without elem_type (the session_run fuzzer's find:
// the If check dereferenced the missing inner type) is a loose declaration, not an error:
// the model is valid and runs. then: an empty optional; else: optional(seq([1..5])).
TEST(HostileModels, IfBranchOptionalWithoutElementTypeRuns) {
  const std::string path =
      test::source_dir() + "/tests/fixtures/hostile/if_optional_without_elem_type.onnx";
  Session session(Model::load(path));
  for (bool cond : {true, false}) {
    const auto out = session.run({{"cond", test::boolean({}, {cond})}});
    EXPECT_EQ(out[0].second.tensor().get_int(0), cond ? 0 : 1) << "cond " << cond;
  }
}

TEST(HostileModels, TruncatedAndBitFlippedCopiesOfTheExample) {
  const std::string bytes = read_bytes(test::source_dir() + "/examples/if_loop.onnx");
  ASSERT_GT(bytes.size(), 100u);
  const std::string dir = test::scratch_dir("hostile_copies");
  const std::string path = dir + "/m.onnx";
  auto try_bytes = [&](const std::string& b) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << b;
    expect_only_bough_errors(path);
  };
  for (size_t cut = 0; cut < bytes.size(); cut += 7) try_bytes(bytes.substr(0, cut));
  for (size_t k = 0; k < 400; ++k) {
    std::string flipped = bytes;
    const size_t at = (k * 7919) % flipped.size();
    flipped[at] = static_cast<char>(flipped[at] ^ (1 << (k % 8)));
    try_bytes(flipped);
  }
}

// The ONNX fuzz targets' seed corpus (scripts/fuzz): every conformance model through
// Model::load_bytes and one run, then its first half and a copy with one byte flipped.
TEST(HostileModels, ConformanceModelsWholeCutAndFlippedThroughTheBytesApi) {
  const std::string suite = test::conformance_dir();
  if (suite.empty()) GTEST_SKIP() << "no conformance suite";
  int models = 0;
  for (const auto& entry : fs::directory_iterator(suite)) {
    const fs::path model = entry.path() / "model.onnx";
    if (!fs::is_regular_file(model)) continue;
    const std::string bytes = read_bytes(model.string());
    const std::string name = entry.path().filename().string();
    expect_only_bough_errors_from_bytes(name, bytes);
    expect_only_bough_errors_from_bytes(name + " cut", bytes.substr(0, bytes.size() / 2));
    std::string flipped = bytes;
    flipped[(static_cast<size_t>(models) * 7919) % flipped.size()] ^= 0x55;
    expect_only_bough_errors_from_bytes(name + " flipped", flipped);
    ++models;
  }
  EXPECT_GT(models, 100);
}

}  // namespace
}  // namespace bough
