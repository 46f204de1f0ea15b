// Bool bytes other than 0 and 1 (issue 29). ONNX raw_data, a .npy file and a caller's
// buffer may hold any byte for a bool, every nonzero one meaning true (numpy's reading);
// the kernels hold bools as C++ bool, where such a byte made Not of [0, 1, 2, 255] give
// [T, F, T, T]. Each bool-reading kernel is run on the bytes [0, 1, 2, 255] as they enter
// from each source, with and without constant folding; the expected values are worked out
// from a = [F, T, T, T].
#include "util/bool_bytes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "bough/session.h"
#include "formats/npy/npy.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::boolean;
using test::f32;
using test::GraphBuilder;

const uint8_t kBytes[4] = {0, 1, 2, 255};

// A bool tensor [4] holding kBytes as they are (what a hostile file would hold).
Tensor hostile_bools() {
  Tensor t = boolean({4}, {false, false, false, false});
  std::memcpy(t.raw(), kBytes, 4);
  return t;
}

std::vector<uint8_t> bytes_of(const Tensor& t) {
  const auto* b = static_cast<const uint8_t*>(t.raw());
  return {b, b + t.nbytes()};
}

struct BoolCase {
  std::string op;
  std::vector<std::string> inputs;  // "a" is the hostile bool tensor
  test::NamedTensors others;        // initializers besides "a"
  std::function<void(onnxpb::NodeProto&)> attrs;
  std::vector<double> expected;  // the output's elements as numbers
};

std::vector<BoolCase> cases() {
  const Tensor ones = boolean({4}, {true, true, true, true});
  const Tensor zeros = boolean({4}, {false, false, false, false});
  return {
      {"Not", {"a"}, {}, nullptr, {1, 0, 0, 0}},
      {"Equal", {"a", "t"}, {{"t", ones}}, nullptr, {0, 1, 1, 1}},
      {"Equal",
       {"a", "a2"},
       {{"a2", boolean({4}, {false, true, true, true})}},
       nullptr,
       {1, 1, 1, 1}},
      {"Xor", {"a", "t"}, {{"t", ones}}, nullptr, {1, 0, 0, 0}},
      {"And", {"a", "t"}, {{"t", ones}}, nullptr, {0, 1, 1, 1}},
      {"Or", {"a", "f"}, {{"f", zeros}}, nullptr, {0, 1, 1, 1}},
      {"Where",
       {"a", "wx", "wy"},
       {{"wx", f32({4}, {10, 20, 30, 40})}, {"wy", f32({4}, {-1, -2, -3, -4})}},
       nullptr,
       {-1, 20, 30, 40}},
      {"Cast",
       {"a"},
       {},
       [](onnxpb::NodeProto& n) { test::set_int(n, "to", static_cast<int64_t>(ElemType::Float)); },
       {0, 1, 1, 1}},
      {"Cast",
       {"a"},
       {},
       [](onnxpb::NodeProto& n) { test::set_int(n, "to", static_cast<int64_t>(ElemType::Int32)); },
       {0, 1, 1, 1}},
  };
}

// The op on "a", which is an initializer (raw_data) or, with `a_is_input`, an input.
std::string save_case(const BoolCase& c, bool a_is_input, const std::string& dir) {
  GraphBuilder g("main");
  if (a_is_input)
    g.input("a", ElemType::Bool, {4});
  else
    g.initializer("a", hostile_bools());
  for (const auto& [name, t] : c.others) g.initializer(name, t);
  // The op's result is not the graph's output, so that folding may take it.
  onnxpb::NodeProto& n = g.node(c.op, c.inputs, {"z"});
  if (c.attrs) c.attrs(n);
  g.node("Identity", {"z"}, {"y"});
  g.output_untyped("y");
  onnxpb::ModelProto m = test::make_model(g);
  if (!a_is_input) {
    // The writer wrote the bytes as they were; make sure the file holds 2 and 255.
    const std::string& raw = m.graph().initializer(0).raw_data();
    EXPECT_EQ(raw, std::string("\x00\x01\x02\xff", 4));
  }
  return test::save_model(m, dir, "m.onnx");
}

void expect_values(const Tensor& y, const std::vector<double>& expected, const std::string& what) {
  ASSERT_EQ(y.numel(), 4) << what;
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(y.get_double(i), expected[i]) << what << " [" << i << "]";
}

TEST(BoolBytes, OnnxRawDataIsNormalizedForEveryBoolKernel) {
  for (const BoolCase& c : cases()) {
    const std::string path = save_case(c, false, test::scratch_dir("bool_bytes_raw"));
    for (Optimization level : {Optimization::none, Optimization::all}) {
      SessionOptions options;
      options.optimization = level;
      Session session(Model::load(path), options);
      expect_values(session.run({})[0].second.tensor(), c.expected,
                    c.op + (level == Optimization::none ? " run" : " folded"));
    }
  }
}

// The C++ API's wrap of a caller's buffer: the buffer is left as it was (it may be
// read-only), and the run sees 0 and 1.
TEST(BoolBytes, WrappedCallerBufferIsReadAsZeroAndOne) {
  for (const BoolCase& c : cases()) {
    const std::string path = save_case(c, true, test::scratch_dir("bool_bytes_wrap"));
    SessionOptions options;
    options.optimization = Optimization::none;
    Session session(Model::load(path), options);
    uint8_t buffer[4] = {0, 1, 2, 255};
    static int released = 0;
    released = 0;
    {
      Tensor a = Tensor::wrap(ElemType::Bool, {4}, buffer, [](void*) { ++released; });
      EXPECT_EQ(bytes_of(a), (std::vector<uint8_t>{0, 1, 1, 1}));
      expect_values(session.run({{"a", a}})[0].second.tensor(), c.expected, c.op + " wrapped");
    }
    EXPECT_EQ(released, 1);
    EXPECT_EQ(std::memcmp(buffer, kBytes, 4), 0);
  }
  // A buffer of 0 and 1 only is still wrapped, not copied.
  uint8_t clean[2] = {1, 0};
  Tensor t = Tensor::wrap(ElemType::Bool, {2}, clean);
  EXPECT_EQ(t.raw(), static_cast<void*>(clean));
}

TEST(BoolBytes, NpyFileIsNormalized) {
  const std::string path = test::scratch_dir("bool_bytes_npy") + "/a.npy";
  std::string header = "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size());
  file += '\0';
  std::ofstream(path, std::ios::binary) << file << header << std::string("\x00\x01\x02\xff", 4);
  Tensor a = npy::read_npy(path);
  EXPECT_EQ(bytes_of(a), (std::vector<uint8_t>{0, 1, 1, 1}));
  // Through the CLI: Not of the file.
  const BoolCase not_case = cases()[0];
  const std::string model = save_case(not_case, true, test::scratch_dir("bool_bytes_npy_cli"));
  std::string out;
  EXPECT_EQ(test::run_cli("run " + model + " --input a=" + path, &out), 0) << out;
  EXPECT_NE(out.find("[true, false, false, false]"), std::string::npos) << out;
}

TEST(BoolBytes, HelperFindsAndNormalizes) {
  uint8_t b[5] = {0, 1, 2, 128, 255};
  EXPECT_TRUE(util::has_non_boolean_bytes(b, 5));
  EXPECT_FALSE(util::has_non_boolean_bytes(b, 2));
  util::normalize_bools(b, 5);
  EXPECT_EQ(std::vector<uint8_t>(b, b + 5), (std::vector<uint8_t>{0, 1, 1, 1, 1}));
}

}  // namespace
}  // namespace bough
