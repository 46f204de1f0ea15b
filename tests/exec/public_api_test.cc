// The public API around a Session: Tensor::wrap over a caller's buffer (no copy, release
// called once), Model::load_bytes, save and to_bytes. Runs examples/if_loop.onnx, whose
// results are worked by hand: iterations 0, 2, ... add 1 to x, odd ones halve it.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
#include "test_paths.h"

namespace bough::test {
namespace {

std::string example_path() { return source_dir() + "/examples/if_loop.onnx"; }

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// x_final of the example after n = 2 iterations: (x + 1) / 2.
std::vector<float> run_two_steps(Session& s, const Tensor& x) {
  NamedValues out = s.run({{"x", x}, {"n", Tensor::scalar_i64(2)}});
  const float* y = out[0].second.tensor().data<float>();
  return {y[0], y[1], y[2]};
}

TEST(PublicApi, WrappedBufferIsReadInPlaceAndReleasedOnce) {
  Session s(Model::load(example_path()));
  float buffer[3] = {1, 3, 5};
  int releases = 0;
  {
    Tensor x = Tensor::wrap(
        ElemType::Float, {3}, buffer, [](void* n) { ++*static_cast<int*>(n); }, &releases);
    EXPECT_EQ(x.data<float>(), buffer);
    EXPECT_EQ(run_two_steps(s, x), (std::vector<float>{1, 2, 3}));
    // The tensor reads the caller's memory, so a change there shows in the next run.
    buffer[0] = 7;
    EXPECT_EQ(run_two_steps(s, x), (std::vector<float>{4, 2, 3}));
    Tensor copy = x;  // shares the buffer: one release for both
    EXPECT_EQ(releases, 0);
  }
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(buffer[1], 3);  // never written
}

TEST(PublicApi, WrapRefusesStrings) {
  std::string s[1];
  EXPECT_THROW(Tensor::wrap(ElemType::String, {1}, s), Error);
}

TEST(PublicApi, LoadsFromBytesInMemory) {
  Model m = Model::load_bytes(file_bytes(example_path()), "in-memory");
  EXPECT_EQ(m.path(), "in-memory");
  Session s(m);
  EXPECT_EQ(
      run_two_steps(s, Tensor::wrap(ElemType::Float, {3}, std::array<float, 3>{1, 1, 1}.data())),
      (std::vector<float>{1, 1, 1}));
  try {
    Model::load_bytes("not a model", "junk-bytes");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("junk-bytes"), std::string::npos) << e.what();
  }
}

TEST(PublicApi, SavesAndReloadsAsOnnxAndOpenVinoIr) {
  const std::string dir = scratch_dir("public_api_save");
  Model m = Model::load(example_path());
  m.save(dir + "/copy.onnx");
  m.save(dir + "/copy.xml");
  EXPECT_TRUE(std::filesystem::exists(dir + "/copy.bin"));
  for (const std::string& path : {dir + "/copy.onnx", dir + "/copy.xml"}) {
    Session s(Model::load(path));
    float x[3] = {3, 5, 7};
    EXPECT_EQ(run_two_steps(s, Tensor::wrap(ElemType::Float, {3}, x)),
              (std::vector<float>{2, 3, 4}))
        << path;
  }
  // The bytes in memory are the ONNX file's.
  EXPECT_EQ(m.to_bytes(), file_bytes(dir + "/copy.onnx"));
}

TEST(PublicApi, SaveNeverOverwritesTheModelsOwnFile) {
  const std::string dir = scratch_dir("public_api_overwrite");
  std::filesystem::copy_file(example_path(), dir + "/m.onnx");
  const std::string before = file_bytes(dir + "/m.onnx");
  Model m = Model::load(dir + "/m.onnx");
  try {
    m.save(dir + "/m.onnx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::IO);
    EXPECT_NE(std::string(e.what()).find("m.onnx"), std::string::npos);
  }
  EXPECT_EQ(file_bytes(dir + "/m.onnx"), before);
}

}  // namespace
}  // namespace bough::test
