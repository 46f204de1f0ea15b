// Every subcommand's exit codes: 0 success, 1 invalid model or failed tests, 2 usage, 3 bad
// input data, 4 I/O; each bad value named with the reason.
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

struct Case {
  std::string args;
  int code;
  std::string message;  // a part of the output
};

void expect_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    std::string out;
    EXPECT_EQ(test::run_cli(c.args, &out), c.code) << c.args << "\n" << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.args << "\n" << out;
  }
}

// A model whose Add gets a float and an int64: a type error.
std::string type_error_model(const std::string& dir) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.input("k", ElemType::Int64, {2});
  g.output("y", ElemType::Float, {2});
  g.node("Add", {"x", "k"}, {"y"}, "add");
  return test::save_model(test::make_model(g), dir, "type_error.onnx");
}

// Two Adds that each get a float and an int64: two type errors.
std::string two_type_errors_model(const std::string& dir) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.input("k", ElemType::Int64, {2});
  g.output("y", ElemType::Float, {2});
  g.output("z", ElemType::Float, {2});
  g.node("Add", {"x", "k"}, {"y"}, "first");
  g.node("Add", {"x", "k"}, {"z"}, "second");
  return test::save_model(test::make_model(g), dir, "two_type_errors.onnx");
}

// x: float[batch, 2] -> Relu -> y.
std::string symbolic_model(const std::string& dir) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {1, 2});
  g.output("y", ElemType::Float, {1, 2});
  g.node("Relu", {"x"}, {"y"}, "relu");
  auto& dim = *g.mutable_proto()
                   .mutable_input(0)
                   ->mutable_type()
                   ->mutable_tensor_type()
                   ->mutable_shape()
                   ->mutable_dim(0);
  dim.set_dim_param("batch");
  auto& out_dim = *g.mutable_proto()
                       .mutable_output(0)
                       ->mutable_type()
                       ->mutable_tensor_type()
                       ->mutable_shape()
                       ->mutable_dim(0);
  out_dim.set_dim_param("batch");
  return test::save_model(test::make_model(g), dir, "symbolic.onnx");
}

// A MapProto file of two entries, 1 -> [0.5] and 2 -> [1.5] (keys "a", "b" with
// `string_keys`): bough has no map values, so it must be refused whatever the input's type.
std::string save_map_proto(const std::string& dir, const std::string& name, bool string_keys) {
  onnxpb::MapProto map;
  map.set_name("m");
  map.set_key_type(string_keys ? onnxpb::TensorProto::STRING : onnxpb::TensorProto::INT64);
  for (int k = 1; k <= 2; ++k) {
    if (string_keys)
      map.add_string_keys(std::string(1, static_cast<char>('a' + k - 1)));
    else
      map.add_keys(k);
  }
  map.mutable_values()->set_elem_type(onnxpb::SequenceProto::TENSOR);
  for (float v : {0.5f, 1.5f}) {
    onnxpb::TensorProto* t = map.mutable_values()->add_tensor_values();
    t->set_data_type(onnxpb::TensorProto::FLOAT);
    t->add_dims(1);
    t->add_float_data(v);
  }
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << map.SerializeAsString();
  return path;
}

// A SequenceProto of two float[1] tensors.
std::string save_sequence_proto(const std::string& dir) {
  onnxpb::SequenceProto seq;
  seq.set_name("s");
  seq.set_elem_type(onnxpb::SequenceProto::TENSOR);
  for (float v : {0.5f, 1.5f}) {
    onnxpb::TensorProto* t = seq.add_tensor_values();
    t->set_data_type(onnxpb::TensorProto::FLOAT);
    t->add_dims(1);
    t->add_float_data(v);
  }
  const std::string path = dir + "/seq.pb";
  std::ofstream(path, std::ios::binary) << seq.SerializeAsString();
  return path;
}

// A .npy of numpy's object dtype: strings in a pickle (np.save of dtype=object).
std::string save_object_npy(const std::string& dir) {
  std::string header = "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }";
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  const std::string path = dir + "/objects.npy";
  std::ofstream(path, std::ios::binary)
      << std::string("\x93NUMPY\x01\x00", 8) << static_cast<char>(header.size() & 0xff)
      << static_cast<char>(header.size() >> 8) << header
      << "\x80\x03"
         "cnumpy.core.multiarray";
  return path;
}

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::scratch_dir("cli_errors");
    add_ = shell_quoted(test::add_model(dir_));
    bad_ = shell_quoted(type_error_model(dir_));
    x_ = shell_quoted(test::save_npy_f32(dir_, "x.npy", {2}, {1, 2}));
    three_ = shell_quoted(test::save_npy_f32(dir_, "three.npy", {3}, {1, 2, 3}));
  }
  std::string dir_, add_, bad_, x_, three_;
};

TEST_F(CliErrors, Tool) {
  expect_cases({
      {"", 2, "Usage: bough [OPTIONS] [SUBCOMMAND]"},
      {"frobnicate", 2, "no command named 'frobnicate'"},
      {"--frobnicate", 2, "--frobnicate"},
  });
}

TEST_F(CliErrors, Run) {
  const std::string run = "run " + add_;
  expect_cases({
      {run + " -i x=" + x_ + " --input=z=" + x_, 0, "y: tensor(float)[2] [2, 4]"},
      {run + " -i x=" + x_ + " -i z=" + x_ + " --threads=2", 0, "[2, 4]"},
      // 0 is one thread per physical core, the default.
      {run + " -i x=" + x_ + " -i z=" + x_ + " --threads 0", 0, "[2, 4]"},
      {run + " -i x=" + x_ + " -i z=" + x_ + " --threads=-1", 2,
       "--threads: must be at least 0, got -1"},
      {run + " --threads=two", 2, "--threads: must be a whole number, got 'two'"},
      {run + " --input x.npy", 2, "--input: must be NAME=FILE, got 'x.npy'"},
      {run + " -i x=" + x_ + " -i x=" + x_, 2, "--input: 'x' given twice"},
      {run + " -i w=" + x_, 2, "--input: the model has no input 'w' (its inputs: x, z)"},
      {run + " --optimize fast", 2, "--optimize: must be none, basic or all, got 'fast'"},
      {run + " --print some", 2, "--print: must be preview, full, summary or none, got 'some'"},
      {"run", 2, "MODEL is required"},
      // Both missing inputs at once, with their types.
      {run, 3,
       "missing inputs (give each with --input NAME=FILE or NAME=@random):\n"
       "    x: tensor(float)[2]\n    z: tensor(float)[2]"},
      {run + " -i x=" + three_ + " -i z=" + x_, 3, "x"},
      {run + " -i x=" + shell_quoted(dir_ + "/none.npy") + " -i z=" + x_, 4, "none.npy"},
      {"run " + shell_quoted(dir_ + "/none.onnx"), 4, "none.onnx"},
      {"run " + bad_ + " -i x=" + x_ + " -i k=" + x_, 1, "add"},
  });
  // A MapProto given for a tensor input is recognised by its content, not read as a tensor.
  for (bool string_keys : {false, true}) {
    const std::string map = save_map_proto(dir_, string_keys ? "s.pb" : "m.pb", string_keys);
    expect_cases({{run + " -i x=" + shell_quoted(map) + " -i z=" + x_, 3,
                   map + ": holds a MapProto (a map); maps are not supported"}});
  }
  // So is a SequenceProto; a .npy of Python objects cut short says so.
  const std::string seq = save_sequence_proto(dir_);
  const std::string objects = save_object_npy(dir_);
  expect_cases({
      {run + " -i x=" + shell_quoted(seq) + " -i z=" + x_, 3,
       seq + ": holds a SequenceProto (a sequence of tensors) where a TensorProto is needed: "
             "the input is a tensor"},
      {run + " -i x=" + shell_quoted(objects) + " -i z=" + x_, 3,
       objects + ": npy object array: the pickle is cut short (bough reads only the pickle "
                 "numpy writes for an array of str or bytes; np.save(path, array.astype(str)) "
                 "writes a plain string array)"},
  });
}

TEST_F(CliErrors, Bench) {
  const std::string bench = "bench " + add_;
  const std::string sym = shell_quoted(symbolic_model(dir_));
  expect_cases({
      {bench + " --iters 0", 2, "--iters: must be at least 1, got 0"},
      {bench + " --iters=3 --warmup=-1", 2, "--warmup: must be at least 0, got -1"},
      {bench + " --duration 0", 2, "--duration: must be above 0, got 0"},
      {bench + " --iters 3 --duration 1", 2, "--iters excludes --duration"},
      {bench + " --iters 3", 0, "3 runs after 5 warm-up"},
      {bench + " --iters 3 -i x=@random", 0, "3 runs"},
      // bench sets a free dimension to 1 where run asks for its size.
      {"bench " + sym + " --iters 2", 0, "free dimensions set to 1: batch"},
      {"run " + sym + " -i x=@random", 2,
       "input 'x' (tensor(float)[batch,2]) has the dimension 'batch'; give its size with --dim "
       "batch=N"},
      {"bench " + sym + " --iters 2 --dim batch=4", 0, "2 runs"},
      {"bench " + sym + " --iters 2 --dim batch", 2, "--dim: must be NAME=VALUE, got 'batch'"},
      {bench + " --iters 2 -i x=" + three_, 3, "x"},
      {"bench " + bad_, 1, "add"},
  });
}

TEST_F(CliErrors, ModelCommands) {
  const std::string none = shell_quoted(dir_ + "/none.onnx");
  expect_cases({
      {"info", 2, "MODEL is required"},
      {"info " + none, 4, "none.onnx"},
      {"info " + add_ + " --depth -1", 2, "--depth: must be at least 0, got -1"},
      {"check " + none, 4, "none.onnx"},
      {"check " + bad_, 1, "invalid"},
      {"check " + add_, 0, "valid"},
      {"infer " + none, 4, "none.onnx"},
      {"infer " + bad_, 1, "add"},
      {"infer " + add_ + " -o " + add_, 2, "infer never overwrites its input"},
      {"ops NoSuchOp", 1, "no operator named 'NoSuchOp'"},
      {"ops --bogus", 2, "--bogus"},
      {"convert " + add_, 2, "OUT is required"},
      {"convert " + add_ + " " + shell_quoted(dir_ + "/o.txt"), 2, "must end in .onnx or .xml"},
      {"convert " + add_ + " " + shell_quoted(dir_ + "/o.onnx") + " --captures some", 2,
       "--captures: must be carried or implicit, got 'some'"},
      {"convert " + add_ + " " + shell_quoted(dir_ + "/o.onnx") + " --opset=0", 2,
       "--opset: must be at least 1, got 0"},
      {"convert " + none + " " + shell_quoted(dir_ + "/o.onnx"), 4, "none.onnx"},
      {"convert " + add_ + " " + shell_quoted(dir_ + "/no/such/dir/o.onnx"), 4, "o.onnx"},
      {"optimize " + add_, 2, "optimize needs IN and OUT"},
      {"optimize " + add_ + " " + shell_quoted(dir_ + "/o.onnx") + " --passes nope", 2,
       "--passes: no pass named 'nope'"},
      {"optimize " + bad_ + " " + shell_quoted(dir_ + "/o.onnx"), 1, "add"},
      {"optimize " + shell_quoted(two_type_errors_model(dir_)) + " " +
           shell_quoted(dir_ + "/o.onnx"),
       1, "(and 1 more error; `bough check` lists them)"},
      {"test-data", 2, "DIR is required"},
      {"test-data " + shell_quoted(dir_ + "/none"), 2, "is not a test folder"},
      {"test-data --optimize most " + shell_quoted(dir_), 2,
       "--optimize: must be none, basic or all"},
  });
}

}  // namespace
}  // namespace bough
