// Untrusted model files go through the public API as a server would take them: load, a
// session, one run on inputs made up from the declared types (fuzz/run_once.h). Only
// bough::Error may come out; a crash, an abort or any other exception fails the test.
// tests/fixtures/hostile/ keeps one file per problem fuzzing and review found (each fixed):
// initializers claiming 2^28 strings or 2^39 floats, external data naming a folder,
// 30,000 nested regex groups, integer log-reductions and Shrink leaving the integer range,
// a HannWindow of 2^31 samples (8 GiB; run_once gives sessions a 256 MiB limit).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bough/error.h"
#include "bough/model.h"
#include "run_once.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

// Loads and runs one file; fails the test on anything but success or a bough::Error.
void expect_only_bough_errors(const std::string& path) {
  try {
    fuzz::run_once(Model::load(path), "\x01\x7f\x80\xff\x00\x10");
  } catch (const Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << path << ": a non-standard exception";
  }
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
    expect_only_bough_errors(entry.path().string());
    ++files;
  }
  EXPECT_GE(files, 8);
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

}  // namespace
}  // namespace bough
