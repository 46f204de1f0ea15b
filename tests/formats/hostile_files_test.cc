// Hostile files, round 3 (issue 29): a FIFO or another file that is not regular, given as a
// model, an IR's .bin, external data or an input, is refused at once instead of blocking the
// open; an IR .bin that is a symlink out of the model's folder is refused as ONNX external
// data is; a .npy header is parsed strictly. Each hostile file is made by the test.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/npy/npy.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"
#include "util/files.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using test::f32;
using test::floats_of;

// A FIFO with no writer: opening it for reading blocks until one comes, so a test of it that
// regresses would hang; the alarm turns that into a failure.
class FifoGuard {
 public:
  FifoGuard() { ::alarm(60); }
  ~FifoGuard() { ::alarm(0); }
};

std::string make_fifo(const std::string& path) {
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
  return path;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The message of the bough::Error `fn` throws ("" and a test failure when it throws none).
template <typename Fn>
std::string error_of(Fn fn, ErrorKind kind) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// x [2] + a Const [2] at offset 0 of the .bin.
std::string add_const_net() {
  return test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2}), {2}}, {test::ov_const(1, "c", {2}, "f32", 0), {2}}}, "Add",
      "opset1", "", {2}, "y");
}

TEST(HostileFiles, FifoModelsAndWeightsAreRefusedWithoutBlocking) {
  FifoGuard guard;
  const std::string dir = test::scratch_dir("hostile_fifo");
  for (const char* name : {"model.onnx", "net.xml"}) {
    const std::string fifo = make_fifo(dir + "/" + name);
    EXPECT_TRUE(has(error_of([&] { Model::load(fifo); }, ErrorKind::IO), "not a regular file"));
  }
  // An IR whose .bin is a FIFO.
  fs::create_directories(dir + "/ir");
  const std::string xml = test::save_ir(dir + "/ir", "m", add_const_net());
  make_fifo(dir + "/ir/m.bin");
  EXPECT_TRUE(has(error_of([&] { Model::load(xml); }, ErrorKind::IO), "not a regular file"));
  // A folder is no file either.
  EXPECT_TRUE(has(error_of([&] { read_file(dir); }, ErrorKind::IO), "is a folder"));
}

TEST(HostileFiles, FifoInputFileIsRefusedWithoutBlocking) {
  FifoGuard guard;
  const std::string dir = test::scratch_dir("hostile_fifo_input");
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Relu", {"x"}, {"y"});
  g.output("y", ElemType::Float, {2});
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  const std::string fifo = make_fifo(dir + "/x.npy");
  std::string out;
  EXPECT_NE(test::run_cli("run " + model + " --input x=" + fifo, &out), 0);
  EXPECT_TRUE(has(out, "not a regular file")) << out;
}

TEST(HostileFiles, FifoExternalDataIsRefusedWithoutBlocking) {
  FifoGuard guard;
  const std::string dir = test::scratch_dir("hostile_fifo_external");
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("w", f32({2}, {1, 2}));
  g.node("Add", {"x", "w"}, {"y"});
  g.output("y", ElemType::Float, {2});
  onnxpb::ModelProto m = test::make_model(g);
  auto* w = m.mutable_graph()->mutable_initializer(0);
  w->clear_raw_data();
  w->clear_float_data();
  w->set_data_location(onnxpb::TensorProto::EXTERNAL);
  auto* entry = w->add_external_data();
  entry->set_key("location");
  entry->set_value("w.bin");
  const std::string model = test::save_model(m, dir, "m.onnx");
  make_fifo(dir + "/w.bin");
  EXPECT_TRUE(
      has(error_of([&] { Model::load(model); }, ErrorKind::InvalidModel), "not a regular file"));
}

// Before, `run` printed the bytes of whatever such a link pointed at (/etc/passwd).
TEST(HostileFiles, IrWeightsSymlinkLeavingTheFolderIsRefused) {
  const std::string dir = test::scratch_dir("hostile_ir_symlink");
  fs::create_directories(dir + "/outside");
  fs::create_directories(dir + "/model");
  write_bytes(dir + "/outside/secret.bin", test::bytes_of<float>({7, 8}));
  const std::string xml = test::save_ir(dir + "/model", "m", add_const_net());
  fs::create_symlink("../outside/secret.bin", dir + "/model/m.bin");
  const std::string message = error_of([&] { Model::load(xml); }, ErrorKind::InvalidModel);
  EXPECT_TRUE(has(message, "weights file 'm.bin' leaves the model's folder")) << message;
  // A link that stays inside the folder is read: x + [7, 8].
  fs::remove(dir + "/model/m.bin");
  fs::rename(dir + "/outside/secret.bin", dir + "/model/real.bin");
  fs::create_symlink("real.bin", dir + "/model/m.bin");
  Session session(Model::load(xml));
  NamedValues out = session.run({{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{8, 10}));
}

// ---- .npy headers ----------------------------------------------------------------------

// A version 1.0 .npy file: magic, version, header length, `header` padded, then `data`.
std::string npy_file(const std::string& header, const std::string& data = "") {
  std::string h = header;
  while ((10 + h.size() + 1) % 64) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(h.size() & 0xff);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

std::string npy_error(const std::string& header, const std::string& data, ErrorKind kind) {
  const std::string path = test::scratch_dir("hostile_npy") + "/t.npy";
  write_bytes(path, npy_file(header, data));
  return error_of([&] { npy::read_npy(path); }, kind);
}

Tensor read_npy_bytes(const std::string& bytes) {
  const std::string path = test::scratch_dir("hostile_npy_ok") + "/t.npy";
  write_bytes(path, bytes);
  return npy::read_npy(path);
}

TEST(HostileNpy, ZeroSizeStringsWithAHugeShapeAreRefused) {
  // 80,000,000 strings of no bytes in a 128-byte file: 2.5 GB of empty strings before.
  for (const char* descr : {"|S0", "<U0"}) {
    const std::string m = npy_error(
        std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (80000000,), }",
        "", ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "strings of no characters")) << m;
  }
}

TEST(HostileNpy, HugeStringCountIsBoughsOwnMessage) {
  for (const char* descr : {"|S99999999999999999999999", "<U4294967296", "|S2000000000"}) {
    const std::string m = npy_error(
        std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (1,), }", "",
        ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "strings of over 2^30 characters")) << m;
    EXPECT_FALSE(has(m, "stoul")) << m;
  }
}

TEST(HostileNpy, GarbageShapesAreRefused) {
  for (const char* shape :
       {"(2x, -0)", "(-1,)", "(2, 3", "(2,, 3)", "(0x10,)", "[2, 3]", "(99999999999999999999,)"}) {
    const std::string m =
        npy_error(std::string("{'descr': '<f4', 'fortran_order': False, 'shape': ") + shape + ", }",
                  std::string(64, '\0'), ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "npy header is not valid")) << shape << ": " << m;
  }
  // Keys missing, repeated, unknown, or text after the dict.
  for (const char* header : {"{'descr': '<f4', 'shape': (1,), }",
                             "{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                             "False, 'shape': (1,), }",
                             "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
                             "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }",
                             "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } junk"}) {
    const std::string m = npy_error(header, std::string(4, '\0'), ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "npy header is not valid")) << header << ": " << m;
  }
}

TEST(HostileNpy, ShapesLargerThanTheDataAreRefusedBeforeAllocating) {
  // 2^40 x 2^40 elements would overflow; 2^20 floats need 4 MiB the file does not hold.
  for (const char* shape : {"(1099511627776, 1099511627776)", "(1048576,)"}) {
    const std::string m =
        npy_error(std::string("{'descr': '<f4', 'fortran_order': False, 'shape': ") + shape + ", }",
                  std::string(16, '\0'), ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "shorter than its shape needs")) << m;
  }
}

// Found by fuzz_npy_reader: a scalar's empty shape skipped the length check, so an int64
// scalar followed by 4 bytes was read 4 bytes past the file's end.
TEST(HostileNpy, ScalarShorterThanItsElementIsRefused) {
  for (const auto& [descr, data] : std::vector<std::pair<std::string, std::string>>{
           {"<i8", std::string("\x07\0\0\0", 4)}, {"<f4", "\x07"}, {"|b1", ""}, {"<U3", "abcd"}}) {
    const std::string m =
        npy_error("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (), }", data,
                  ErrorKind::BadInput);
    EXPECT_TRUE(has(m, "shorter than its shape needs")) << descr << ": " << m;
  }
}

TEST(HostileNpy, ValidHeadersInEveryFormNumpyWritesStillRead) {
  // Keys in any order, double quotes, Python 2's long dims, an empty shape, a zero dim.
  Tensor a =
      read_npy_bytes(npy_file("{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"<i4\"}",
                              std::string("\x05\0\0\0\x06\0\0\0", 8)));
  EXPECT_EQ(a.shape(), (Dims{2, 1}));
  EXPECT_EQ(a.data<int32_t>()[1], 6);
  Tensor s = read_npy_bytes(
      npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0')));
  EXPECT_EQ(s.rank(), 0u);
  Tensor z = read_npy_bytes(
      npy_file("{'descr': '|S1000', 'fortran_order': True, 'shape': (0, 1099511627776), }", ""));
  EXPECT_EQ(z.numel(), 0);
}

// Found by fuzz_npy_reader: a <U code unit past U+10FFFF is no character (numpy refuses it
// too); it was written out as bytes that read back as other text. And numpy drops trailing
// NULs only: a NUL inside a string stays (it cut the string before).
TEST(HostileNpy, StringsAreReadAsNumpyReadsThem) {
  const std::string header = "{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }";
  const std::string m = npy_error(header, std::string("x\0\0\0\0\0\0\x15", 8), ErrorKind::BadInput);
  EXPECT_TRUE(has(m, "no character")) << m;
  Tensor u = read_npy_bytes(npy_file(header, std::string("\0\0\0\0y\0\0\0", 8)));
  EXPECT_EQ(u.strings()[0], std::string("\0y", 2));
  Tensor b = read_npy_bytes(npy_file("{'descr': '|S4', 'fortran_order': False, 'shape': (1,), }",
                                     std::string("a\0b\0", 4)));
  EXPECT_EQ(b.strings()[0], std::string("a\0b", 3));
}

// Found by fuzz_npy_reader: a string holding bytes that are not UTF-8 was written as <U
// code units past U+10FFFF (a lead byte 0xf7 read as a 4-byte form), a file neither numpy
// nor bough reads. Each such byte is written as the character of its value.
TEST(HostileNpy, StringsThatAreNotUtf8AreWrittenAsCharacters) {
  Tensor t(ElemType::String, Dims{1});
  t.strings()[0] = std::string(
      "\xf7\xff\xff\xff"
      "a",
      5);
  Tensor back = read_npy_bytes(npy::encode_npy(t));
  // U+00F7 U+00FF U+00FF U+00FF 'a', as UTF-8.
  EXPECT_EQ(back.strings()[0],
            "\xc3\xb7\xc3\xbf\xc3\xbf\xc3\xbf"
            "a");
}

}  // namespace
}  // namespace bough
