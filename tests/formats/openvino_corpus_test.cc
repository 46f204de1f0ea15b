// OpenVINO's own IR files (issue 27): its test models, the IR its reader tests embed, models
// from its bindings and examples (tests/fixtures/openvino/corpus, listed with their source
// and commit in manifest.txt). Each is taken through load, check, run, convert to ONNX,
// check of that ONNX, its run, and IR -> ONNX -> IR, and must end as the manifest says: what
// OpenVINO does with it, with bough's present shortfalls marked `known` (skipped while they
// still fail as recorded). docs/openvino-corpus.md is the table of the same outcomes.
#include "formats/openvino_corpus.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "formats/npy/npy.h"
#include "formats/openvino_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

std::string corpus_dir() { return test::source_dir() + "/tests/fixtures/openvino/corpus"; }

std::vector<test::CorpusEntry> entries() {
  static const std::vector<test::CorpusEntry> all =
      test::read_corpus_manifest(corpus_dir() + "/manifest.txt");
  return all;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// With $BOUGH_KEEP_IR set, the model and the inputs it ran on go to
// $BOUGH_KEEP_IR/OpenVinoCorpus.<file>_0, where bench/ort-check-openvino runs its ONNX form
// on ONNX Runtime.
void keep_for_peer_check(const std::string& name, const std::string& dir,
                         const NamedValues& inputs) {
  const char* keep = std::getenv("BOUGH_KEEP_IR");
  if (!keep || !*keep) return;
  // The check names each input's .npy after it: a name with a '/' cannot be one.
  for (const auto& [input, value] : inputs)
    if (input.find('/') != std::string::npos) return;
  fs::path to = fs::path(keep) / ("OpenVinoCorpus." + name + "_0");
  fs::remove_all(to);
  fs::create_directories(to / "inputs");
  fs::copy_file(fs::path(dir) / "m.xml", to / "m.xml");
  if (fs::exists(fs::path(dir) / "m.bin")) fs::copy_file(fs::path(dir) / "m.bin", to / "m.bin");
  for (const auto& [input, value] : inputs)
    npy::write_npy(value.tensor(), (to / "inputs" / (input + ".npy")).string());
}

class CorpusFiles : public ::testing::TestWithParam<test::CorpusEntry> {};

TEST_P(CorpusFiles, EndsAsTheManifestSays) {
  const test::CorpusEntry& e = GetParam();
  const std::string xml = slurp(corpus_dir() + "/" + e.file);
  ASSERT_FALSE(xml.empty()) << e.file;
  std::string name = fs::path(e.file).stem().string();
  std::string dir = test::scratch_dir("ov_corpus_" + name);
  std::string path = test::save_ir(dir, "m", xml, test::corpus_weights(e.bin, xml));
  // `known-load` files are not run: OpenVINO only reads them too.
  const bool known = e.expect.rfind("known:", 0) == 0 || e.expect.rfind("known-load:", 0) == 0;
  const bool run = e.expect == "run" || e.expect.rfind("known:", 0) == 0;
  NamedValues inputs;
  test::CorpusOutcome got = test::corpus_steps(path, e.inputs, run, &inputs);
  const std::string seen =
      got.step.empty() ? "passes every step" : "fails at " + got.step + ": " + got.error;
  std::cout << "[corpus] " << e.file << ": " << seen << "\n";

  if (e.expect == "run" || e.expect == "load") {
    EXPECT_EQ(got.step, "") << e.file << " " << seen;
    if (got.step.empty() && run) keep_for_peer_check(name, dir, inputs);
  } else if (e.expect.rfind("refuse:", 0) == 0) {
    const std::string text = e.expect.substr(7);
    EXPECT_TRUE(got.step == "load" || got.step == "check")
        << e.file << ": OpenVINO refuses it, bough " << seen;
    EXPECT_NE(got.error.find(text), std::string::npos) << e.file << " " << seen;
  } else if (e.expect.rfind("known-accepts:", 0) == 0) {
    // OpenVINO refuses it and bough does not yet: a bough-bug.
    ASSERT_FALSE(got.step == "load" || got.step == "check")
        << e.file << " is now refused (" << seen << "): mark it `refuse` in the manifest";
    GTEST_SKIP() << "known shortfall (" << e.note << "): bough " << seen;
  } else if (known) {
    const size_t first = e.expect.find(':'), colon = e.expect.find(':', first + 1);
    ASSERT_NE(colon, std::string::npos) << e.expect;
    const std::string step = e.expect.substr(first + 1, colon - first - 1);
    const std::string text = e.expect.substr(colon + 1);
    ASSERT_FALSE(got.step.empty())
        << e.file << " now passes every step: mark it `run` in the manifest and the table";
    ASSERT_EQ(got.step, step) << e.file << " " << seen;
    ASSERT_NE(got.error.find(text), std::string::npos) << e.file << " " << seen;
    GTEST_SKIP() << "known shortfall (" << e.note << "): " << seen;
  } else {
    FAIL() << "unknown EXPECT " << e.expect;
  }
}

std::string test_name(const ::testing::TestParamInfo<test::CorpusEntry>& info) {
  std::string n = fs::path(info.param.file).stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(OpenVinoCorpus, CorpusFiles, ::testing::ValuesIn(entries()), test_name);

// The manifest lists every file in the folder, and only files that are there.
TEST(OpenVinoCorpusManifest, ListsEveryFile) {
  std::set<std::string> listed, present;
  for (const test::CorpusEntry& e : entries()) {
    EXPECT_TRUE(listed.insert(e.file).second) << e.file << " is listed twice";
    EXPECT_FALSE(e.source.empty()) << e.file;
  }
  for (const auto& f : fs::directory_iterator(corpus_dir()))
    if (f.path().extension() == ".xml") present.insert(f.path().filename().string());
  EXPECT_EQ(listed, present);
}

// The stand-in weights: every Const's bytes at its offset, the named ones as given.
TEST(OpenVinoCorpusManifest, AutoWeightsFollowTheLayerData) {
  const std::string xml =
      "<net version=\"11\"><layers>"
      "<layer id=\"0\" name=\"a\" type=\"Const\"><data element_type=\"i64\" shape=\"2\" "
      "offset=\"4\" size=\"16\"/></layer>"
      "<layer id=\"1\" name=\"b\" type=\"Const\"><data element_type=\"f32\" shape=\"1\" "
      "offset=\"0\" size=\"4\"/></layer></layers></net>";
  std::string bin = test::corpus_weights("auto:a=7,-1", xml);
  ASSERT_EQ(bin.size(), 20u);
  int64_t a[2];
  std::memcpy(a, bin.data() + 4, 16);
  EXPECT_EQ(a[0], 7);
  EXPECT_EQ(a[1], -1);
  float b;
  std::memcpy(&b, bin.data(), 4);
  EXPECT_EQ(b, -20.0f / 64);  // the pattern's first value at offset 0
  EXPECT_EQ(test::corpus_weights("raw:i64=0,3;f32=1.5", xml).size(), 20u);
}

// pp_pre_process_mean.xml: an IR v10 <pre-process> block names a mean image per channel in
// the .bin (here all 1), and OpenVINO's IR frontend subtracts it from the input
// (src/frontends/ir/src/input_model.cpp, its pre-process parsing). So the output is the input
// less 1 (bough passed the input through before it read the block).
TEST(OpenVinoCorpusValues, PreProcessMeanImageIsSubtracted) {
  const std::string xml = slurp(corpus_dir() + "/pp_pre_process_mean.xml");
  std::string dir = test::scratch_dir("ov_corpus_pre_process");
  std::string path = test::save_ir(dir, "m", xml, test::corpus_weights("raw:f32=1*1452", xml));
  Session session(Model::load(path));
  NamedValues inputs = test::corpus_inputs(session, "-");
  NamedValues out = session.run(inputs);
  ASSERT_EQ(out.size(), 1u);
  const Tensor& in = inputs[0].second.tensor();
  const Tensor& got = out[0].second.tensor();
  ASSERT_EQ(got.numel(), 3 * 22 * 22);
  for (int64_t i = 0; i < got.numel(); ++i)
    ASSERT_EQ(got.data<float>()[i], in.data<float>()[i] - 1.0f) << i;
}

}  // namespace
}  // namespace bough
