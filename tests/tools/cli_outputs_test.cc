// `bough run` inputs and outputs against numpy: .npy files numpy wrote (every dtype, strings,
// big-endian, Fortran order) fed in, the outputs written with --output-dir read back by
// numpy; --output-dir's safety (checked before the run, nothing left on failure, no
// overwriting without --force, names.json for changed names); --print summary and --json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using test::shell_quoted;

using test::run_python;

// numpy writes x.npy with `expr`; bough runs an Identity model of element type `type` on it
// and writes y.npy (or y.pb); numpy reads y back and compares it with what it wrote.
void expect_npy_round_trip(const std::string& name, const std::string& expr, ElemType type) {
  const std::string dir = test::scratch_dir("cli_npy_" + name);
  const std::string model = test::identity_model(dir, "m.onnx", type);
  std::string out;
  ASSERT_EQ(run_python("import numpy as np; np.save('" + dir + "/x.npy', " + expr + ")", &out), 0)
      << out;
  ASSERT_EQ(test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(dir + "/x.npy") +
                              " --print none --output-dir " + shell_quoted(dir + "/out"),
                          &out),
            0)
      << name << ": " << out;
  ASSERT_EQ(
      run_python("import numpy as np\n"
                 "x = np.load('" +
                     dir + "/x.npy'); y = np.load('" + dir +
                     "/out/y.npy')\n"
                     "assert x.shape == y.shape, (x.shape, y.shape)\n"
                     "assert (x.dtype.kind, y.dtype.kind) in [('S', 'U'), ('U', 'U')] or "
                     "x.dtype.newbyteorder('=') == y.dtype.newbyteorder('='), (x.dtype, y.dtype)\n"
                     "assert np.array_equal(x.astype(y.dtype) if x.dtype.kind == 'S' else x, y, "
                     "equal_nan=x.dtype.kind in 'fc'), (x, y)\n",
                 &out),
      0)
      << name << ": " << out;
}

TEST(CliNpy, EveryNumpyDtypeRoundTrips) {
  const struct {
    const char* name;
    const char* expr;
    ElemType type;
  } cases[] = {
      {"f4", "np.array([[1.5, -2, np.nan], [np.inf, 0, 3e38]], dtype='<f4')", ElemType::Float},
      {"f8", "np.array([1e300, -0.5], dtype='<f8')", ElemType::Double},
      {"f2", "np.array([1.5, -65504, np.inf], dtype='<f2')", ElemType::Float16},
      {"i1", "np.array([-128, 127], dtype='i1')", ElemType::Int8},
      {"i2", "np.array([-32768, 7], dtype='<i2')", ElemType::Int16},
      {"i4", "np.arange(6, dtype='<i4').reshape(2, 3)", ElemType::Int32},
      {"i8", "np.array([-2**63, 2**63 - 1], dtype='<i8')", ElemType::Int64},
      {"u1", "np.array([0, 255], dtype='u1')", ElemType::UInt8},
      {"u2", "np.array([65535], dtype='<u2')", ElemType::UInt16},
      {"u4", "np.array([2**32 - 1], dtype='<u4')", ElemType::UInt32},
      {"u8", "np.array([2**64 - 1, 1], dtype='<u8')", ElemType::UInt64},
      {"bool", "np.array([[True, False], [False, True]])", ElemType::Bool},
      {"c8", "np.array([1+2j, -3.5j], dtype='<c8')", ElemType::Complex64},
      {"c16", "np.array([1e200+2j], dtype='<c16')", ElemType::Complex128},
      {"scalar", "np.float32(2.5)", ElemType::Float},
      {"empty", "np.zeros((0, 3), dtype='<f4')", ElemType::Float},
      // Big-endian: bough reads them, writes little-endian; the values stay.
      {"be_i4", "np.arange(6, dtype='>i4').reshape(3, 2)", ElemType::Int32},
      {"be_f8", "np.array([1.25, -7e-300], dtype='>f8')", ElemType::Double},
      {"be_c8", "np.array([1+2j], dtype='>c8')", ElemType::Complex64},
      {"be_f2", "np.array([0.5, -3], dtype='>f2')", ElemType::Float16},
      // Fortran order: the same logical array.
      {"fortran", "np.asfortranarray(np.arange(24, dtype='<f4').reshape(2, 3, 4))",
       ElemType::Float},
      // Strings: unicode (any code point, empty ones) and bytes.
      {"unicode", "np.array([['a', 'h\\u00e9llo'], ['', 'z\\u20ac\\U0001f600']])",
       ElemType::String},
      {"be_unicode", "np.array(['ab', 'c'], dtype='>U2')", ElemType::String},
      {"fortran_unicode", "np.asfortranarray(np.array([['a', 'bb'], ['ccc', 'd']]))",
       ElemType::String},
      {"bytes", "np.array([b'ab', b'c', b''])", ElemType::String},
  };
  for (const auto& c : cases) expect_npy_round_trip(c.name, c.expr, c.type);
}

TEST(CliNpy, UnsupportedDtypeIsNamed) {
  const std::string dir = test::scratch_dir("cli_npy_object");
  const std::string model = test::identity_model(dir, "m.onnx", ElemType::Float);
  std::string out;
  ASSERT_EQ(run_python("import numpy as np; np.save('" + dir +
                           "/x.npy', np.array(['2020-01-01'], dtype='datetime64[D]'))",
                       &out),
            0)
      << out;
  EXPECT_EQ(
      test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(dir + "/x.npy"), &out),
      1)
      << out;
  EXPECT_NE(out.find("npy dtype '<M8[D]'"), std::string::npos) << out;
}

// y: bfloat16 and s: a sequence -> .pb files; "big/out:0" needs a new name, in names.json.
TEST(CliOutputs, OutputDirWritesPbForWhatNumpyCannotHoldAndMapsChangedNames) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.output("big/out:0", ElemType::BFloat16, {2});
  g.node("Cast", {"x"}, {"big/out:0"}, "cast");
  test::set_int(g.graph_node_last(), "to", static_cast<int64_t>(ElemType::BFloat16));
  g.output("big_out_0", ElemType::Float, {2});
  g.node("Identity", {"x"}, {"big_out_0"}, "id");
  const std::string dir = test::scratch_dir("cli_outputs_pb");
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  const std::string x = test::save_npy_f32(dir, "x.npy", {2}, {1.5f, -2});
  std::string out;
  ASSERT_EQ(test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(x) +
                              " --output-dir " + shell_quoted(dir + "/out"),
                          &out),
            0)
      << out;
  // Two names that both become big_out_0: the second gets a suffix.
  EXPECT_TRUE(fs::exists(dir + "/out/big_out_0.pb")) << out;
  EXPECT_TRUE(fs::exists(dir + "/out/big_out_0_2.npy")) << out;
  EXPECT_EQ(test::read_text(dir + "/out/names.json"),
            "{\n \"big_out_0.pb\": \"big/out:0\",\n \"big_out_0_2.npy\": \"big_out_0\"\n}\n");
  // The .pb holds a bfloat16 TensorProto; onnx reads it.
  ASSERT_EQ(
      run_python("import onnx, onnx.numpy_helper as nh\n"
                 "t = onnx.TensorProto(); t.ParseFromString(open('" +
                     dir +
                     "/out/big_out_0.pb', 'rb').read())\n"
                     "assert t.data_type == onnx.TensorProto.BFLOAT16, t.data_type\n"
                     "assert list(t.dims) == [2], t.dims\n"
                     "import numpy as np\n"
                     "raw = np.frombuffer(t.raw_data, dtype='<u2').astype(np.uint32) << 16\n"
                     "assert list(raw.view(np.float32)) == [1.5, -2.0], raw.view(np.float32)\n",
                 &out),
      0)
      << out;
  // Nothing left behind: only the three files.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir + "/out")) files += e.is_regular_file() ? 1 : 100;
  EXPECT_EQ(files, 3);
}

TEST(CliOutputs, OutputDirIsCheckedBeforeTheRunAndLeftCleanOnFailure) {
  const std::string dir = test::scratch_dir("cli_outputs_safety");
  const std::string model = shell_quoted(test::add_model(dir));
  const std::string x = shell_quoted(test::save_npy_f32(dir, "x.npy", {2}, {1, 2}));
  const std::string three = shell_quoted(test::save_npy_f32(dir, "three.npy", {3}, {1, 2, 3}));
  std::string out;
  // A run that fails (bad input) leaves no folder.
  EXPECT_EQ(test::run_cli("run " + model + " -i x=" + three + " -i z=" + x + " --output-dir " +
                              shell_quoted(dir + "/new"),
                          &out),
            3)
      << out;
  EXPECT_FALSE(fs::exists(dir + "/new")) << out;
  // A file where the folder should be: an I/O error before the run.
  test::save_npy_f32(dir, "file", {1}, {0});
  EXPECT_EQ(test::run_cli("run " + model + " --output-dir " + shell_quoted(dir + "/file"), &out), 4)
      << out;
  EXPECT_NE(out.find("--output-dir is not a folder"), std::string::npos) << out;
  // An existing output file is kept unless --force; checked before the inputs are read.
  fs::create_directories(dir + "/old");
  test::save_npy_f32(dir + "/old", "y.npy", {1}, {42});
  const std::string old = test::read_text(dir + "/old/y.npy");
  EXPECT_EQ(test::run_cli("run " + model + " --output-dir " + shell_quoted(dir + "/old"), &out), 4)
      << out;
  EXPECT_NE(out.find("y.npy: already exists (--force replaces it)"), std::string::npos) << out;
  EXPECT_EQ(test::read_text(dir + "/old/y.npy"), old);
  EXPECT_EQ(test::run_cli("run " + model + " -i x=" + x + " -i z=" + x + " --force --output-dir " +
                              shell_quoted(dir + "/old"),
                          &out),
            0)
      << out;
  EXPECT_NE(test::read_text(dir + "/old/y.npy"), old);
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir + "/old")) entries += e.exists() ? 1 : 0;
  EXPECT_EQ(entries, 1);  // no staging folder left
}

// [1, NaN, inf, -2, 3]: finite 1, -2, 3 -> min -2, max 3, mean 2/3.
TEST(CliOutputs, PrintSummaryAndJson) {
  const std::string dir = test::scratch_dir("cli_outputs_print");
  const std::string model = shell_quoted(test::identity_model(dir, "m.onnx", ElemType::Float));
  std::string out;
  ASSERT_EQ(run_python("import numpy as np; np.save('" + dir +
                           "/x.npy', np.array([1, np.nan, np.inf, -2, 3], dtype='<f4'))",
                       &out),
            0);
  const std::string run = "run " + model + " -i x=" + shell_quoted(dir + "/x.npy");
  ASSERT_EQ(test::run_cli(run + " --print summary", &out), 0) << out;
  EXPECT_EQ(out, "y: tensor(float)[5]  min -2  max 3  mean 0.666666667  NaN 1  inf 1\n");
  ASSERT_EQ(test::run_cli(run + " --print full", &out), 0) << out;
  EXPECT_EQ(out, "y: tensor(float)[5] [1, nan, inf, -2, 3]\n");
  ASSERT_EQ(test::run_cli(run + " --print none", &out), 0) << out;
  EXPECT_EQ(out, "");
  ASSERT_EQ(test::run_cli(run + " --json --print summary > " + shell_quoted(dir + "/s.json"), &out),
            0)
      << out;
  ASSERT_EQ(test::run_cli(run + " --json --print full > " + shell_quoted(dir + "/f.json"), &out), 0)
      << out;
  ASSERT_EQ(
      run_python("import json\n"
                 "s = json.load(open('" +
                     dir +
                     "/s.json'))['outputs'][0]\n"
                     "assert s['name'] == 'y' and s['dtype'] == 'float' and s['shape'] == [5], s\n"
                     "assert (s['min'], s['max'], s['nan'], s['inf'], s['finite']) == "
                     "(-2, 3, 1, 1, 3), s\n"
                     "assert abs(s['mean'] - 2 / 3) < 1e-8, s\n"
                     "f = json.load(open('" +
                     dir +
                     "/f.json'))['outputs'][0]\n"
                     "assert f['values'] == [1, 'NaN', 'Infinity', -2, 3], f\n",
                 &out),
      0)
      << out;
}

TEST(CliBench, JsonHasEveryStatisticInOrder) {
  const std::string dir = test::scratch_dir("cli_bench_json");
  const std::string model = shell_quoted(test::add_model(dir));
  std::string out;
  ASSERT_EQ(test::run_cli("bench " + model + " --iters 20 --warmup 1 --threads 1 --json > " +
                              shell_quoted(dir + "/b.json"),
                          &out),
            0)
      << out;
  ASSERT_EQ(
      run_python("import json\n"
                 "b = json.load(open('" +
                     dir +
                     "/b.json'))\n"
                     "assert b['runs'] == 20 and b['warmup'] == 1 and b['threads'] == 1, b\n"
                     "t = b['ns']\n"
                     "assert 0 < t['min'] <= t['median'] <= t['p90'] <= t['p95'] <= t['p99'] <= "
                     "t['max'], t\n"
                     "assert t['min'] <= t['mean'] <= t['max'] and t['stddev'] >= 0, t\n"
                     "assert b['runs_per_second'] > 0 and b['peak_rss_bytes'] > 1 << 20, b\n",
                 &out),
      0)
      << out;
  // --duration: at least one run, and the text report names every statistic.
  ASSERT_EQ(test::run_cli("bench " + model + " --duration 0.05", &out), 0) << out;
  for (const char* key : {"min ", "mean ", "median ", "p90 ", "p95 ", "p99 ", "max ", "stddev ",
                          "runs/s", "peak RSS "})
    EXPECT_NE(out.find(key), std::string::npos) << key << "\n" << out;
}

// @random makes a tensor of the declared element type and shape, values in [-1, 1).
TEST(CliInputs, RandomInputsFollowTheDeclaredType) {
  for (ElemType type : {ElemType::Float, ElemType::Float16, ElemType::BFloat16}) {
    test::GraphBuilder g;
    g.input("x", type, {2, 3});
    g.output("y", type, {2, 3});
    g.node("Identity", {"x"}, {"y"}, "id");
    const std::string dir = test::scratch_dir("cli_random");
    const std::string model = test::save_model(test::make_model(g, 21, 10), dir, "m.onnx");
    std::string out;
    ASSERT_EQ(
        test::run_cli("run " + shell_quoted(model) + " -i x=@random --print summary --json > " +
                          shell_quoted(dir + "/r.json"),
                      &out),
        0)
        << out;
    ASSERT_EQ(run_python("import json\n"
                         "y = json.load(open('" +
                             dir +
                             "/r.json'))['outputs'][0]\n"
                             "assert y['dtype'] == '" +
                             std::string(elem_name(type)) +
                             "', y\n"
                             "assert y['shape'] == [2, 3] and y['finite'] == 6, y\n"
                             "assert -1 <= y['min'] < y['max'] <= 1, y\n",
                         &out),
              0)
        << elem_name(type) << ": " << out;
  }
}

}  // namespace
}  // namespace bough
