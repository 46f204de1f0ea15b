// Object-dtype .npy files (strings numpy saved from an object array, as a pickle): the files
// numpy writes, made at test time by make_object_npy.py with the values numpy reads back, and
// hand-made hostile pickles, each refused with its reason; `bough run` end to end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bough/error.h"
#include "formats/npy/npy.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

using test::shell_quoted;

// A literal's bytes, NULs included.
template <size_t N>
std::string raw(const char (&bytes)[N]) {
  return std::string(bytes, N - 1);
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

TEST(NpyObject, ReadsWhatNumpyWrites) {
  const std::string dir = test::scratch_dir("npy_object_fixtures");
  std::string out;
  ASSERT_EQ(
      test::run_command("/usr/bin/python3 " +
                            shell_quoted(test::source_dir() + "/tests/tools/make_object_npy.py") +
                            " " + shell_quoted(dir),
                        &out),
      0)
      << out;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".npy") continue;
    ++files;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    std::ifstream expected(entry.path().parent_path() /
                           (entry.path().stem().string() + ".expected"));
    std::string line;
    std::getline(expected, line);
    Dims shape;
    std::istringstream dims(line);
    for (int64_t d; dims >> d;) shape.push_back(d);
    std::vector<std::string> values;
    while (std::getline(expected, line)) values.push_back(from_hex(line));
    const Tensor t = npy::read_npy(path);
    ASSERT_EQ(t.type(), ElemType::String);
    EXPECT_EQ(t.shape(), shape);
    ASSERT_EQ(static_cast<size_t>(t.numel()), values.size());
    for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(t.strings()[i], values[i]) << i;
  }
  EXPECT_EQ(files, 15u);  // every file make_object_npy.py writes
}

// numpy's pickle of an object array (np.save, protocol 3), written out by hand: `shape` is
// the opcodes of the shape tuple, `elements` those of the list's items, `state_end` what
// closes the array's state (TUPLE, BINPUT, BUILD, STOP).
std::string numpy_pickle(const std::string& shape, const std::string& elements,
                         const std::string& state_end = raw("tq\x0e"
                                                            "b.")) {
  return raw("\x80\x03"
             "cnumpy.core.multiarray\n_reconstruct\nq\x00"
             "cnumpy\nndarray\n"
             "q\x01K\x00\x85q\x02"
             "C\x01"
             "bq\x03\x87q\x04Rq\x05(K\x01") +
         shape +
         raw("cnumpy\ndtype\nq\x07X\x02\x00\x00\x00O8q\x08\x89\x88\x87q\x09Rq\x0a(K\x03"
             "X\x01\x00\x00\x00|q\x0bNNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x3ftq\x0c"
             "b\x89]q\x0d(") +
         elements + "e" + state_end;
}

// X: BINUNICODE, its length in four bytes.
std::string unicode(const std::string& s) {
  std::string len(4, '\0');
  for (size_t i = 0; i < 4; ++i) len[i] = static_cast<char>((s.size() >> (8 * i)) & 0xff);
  return "X" + len + s;
}

const std::string kShape2 = raw("K\x02\x85q\x06");  // (2,)
const std::string kTwo = unicode("one") + unicode("two");

std::string npy_file(const std::string& header_shape, const std::string& pickle) {
  std::string header = "{'descr': '|O', 'fortran_order': False, 'shape': " + header_shape + ", }";
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  return raw("\x93NUMPY\x01\x00") + static_cast<char>(header.size() & 0xff) +
         static_cast<char>(header.size() >> 8) + header + pickle;
}

std::string error_of(const std::string& header_shape, const std::string& pickle) {
  try {
    npy::decode_npy(npy_file(header_shape, pickle), "h.npy");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(NpyObject, TheHandWrittenPickleReads) {
  const Tensor t = npy::decode_npy(npy_file("(2,)", numpy_pickle(kShape2, kTwo)), "h.npy");
  ASSERT_EQ(t.numel(), 2);
  EXPECT_EQ(t.strings()[0], "one");
  EXPECT_EQ(t.strings()[1], "two");
}

TEST(NpyObject, EveryTruncationIsRefused) {
  const std::string whole = numpy_pickle(kShape2, kTwo);
  for (size_t n = 0; n < whole.size(); ++n)
    EXPECT_NE(error_of("(2,)", whole.substr(0, n)).find("npy object array: "), std::string::npos)
        << n;
}

TEST(NpyObject, HostilePicklesAreRefusedWithTheirReason) {
  const std::string one = unicode("one");
  const struct {
    const char* name;
    std::string header_shape, pickle, message;
  } cases[] = {
      {"cut", "(2,)", numpy_pickle(kShape2, kTwo).substr(0, 100), "the pickle is cut short"},
      {"os.system", "(2,)",
       raw("\x80\x03"
           "cos\nsystem\nX\x02\x00\x00\x00lsR."),
       "the pickle calls os system, which is not numpy's"},
      {"text opcode", "(2,)", "\x80\x03I1\n.", "the pickle opcode 0x49 at byte 2"},
      {"protocol 0", "(2,)", "(lp0\n.", "the pickle opcode 0x6c at byte 1"},
      {"protocol 6", "(2,)", "\x80\x06.", "pickle protocol 6"},
      {"list in itself", "(2,)",
       raw("\x80\x03]q\x00h\x00"
           "a."),
       "an element that is neither str nor bytes"},
      {"int element", "(2,)", numpy_pickle(kShape2, one + "K\x07"),
       "an element that is neither str nor bytes"},
      {"None element", "(2,)", numpy_pickle(kShape2, one + "N"),
       "an element that is neither str nor bytes"},
      {"nested list", "(2,)", numpy_pickle(kShape2, one + "]"),
       "an element that is neither str nor bytes"},
      {"giant str", "(2,)",
       numpy_pickle(kShape2, one + "X\xff\xff\xff\xff"
                                   "abc"),
       "a string is longer than the rest of the pickle"},
      {"giant bytes8", "(2,)",
       numpy_pickle(kShape2, one + raw("\x8e\xff\xff\xff\xff\xff\xff\xff\x7f")),
       "a string is longer than the rest of the pickle"},
      {"giant frame", "(2,)", raw("\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\xff."),
       "a frame is longer than the rest of the pickle"},
      {"count below shape", "(3,)", numpy_pickle(raw("K\x03\x85q\x06"), kTwo),
       "the shape [3] needs 3 elements, the pickle holds 2"},
      {"count above shape", "(1,)", numpy_pickle(raw("K\x01\x85q\x06"), kTwo),
       "the shape [1] needs 1 elements, the pickle holds 2"},
      {"shapes differ", "(3,)", numpy_pickle(kShape2, kTwo),
       "the pickle's shape [2] is not the header's [3]"},
      {"overflowing shape", "(2147483647, 2147483647, 2147483647)",
       numpy_pickle(raw("J\xff\xff\xff\x7fJ\xff\xff\xff\x7fJ\xff\xff\xff\x7f\x87q\x06"), kTwo),
       "the shape [2147483647, 2147483647, 2147483647] needs more elements, the pickle holds 2"},
      {"negative dim", "(2,)", numpy_pickle(raw("J\xfe\xff\xff\xff\x85q\x06"), kTwo),
       "a dimension of the array's shape is not a count"},
      {"unset memo", "(2,)", numpy_pickle(kShape2, one + "h\x63"), "memo entry 99 is not set"},
      {"sparse memo", "(2,)", numpy_pickle(kShape2, one + raw("r\xff\xff\xff\xff")),
       "memo entry 4294967295 skips entries"},
      {"after stop", "(2,)", numpy_pickle(kShape2, kTwo) + "N", "bytes after the pickle's end"},
      {"only a string", "(2,)", "\x80\x03N.", "the pickle does not end with one numpy array"},
      {"empty stack", "(2,)",
       "\x80\x03"
       "a.",
       "the stack runs empty"},
      {"no mark", "(2,)", "\x80\x03Nt.", "no mark on the stack"},
      {"float dtype", "(2,)",
       raw("\x80\x03"
           "cnumpy\ndtype\nX\x02\x00\x00\x00"
           "f8\x89\x88\x87R."),
       "a numpy dtype other than object"},
      {"other _reconstruct", "(2,)",
       raw("\x80\x03"
           "cnumpy.core.multiarray\n_reconstruct\ncos\nsystem\nK\x00\x85"
           "C\x01"
           "b\x87R."),
       "numpy's _reconstruct called with other arguments than an ndarray's"},
      {"built twice", "(2,)",
       numpy_pickle(kShape2, kTwo,
                    raw("tq\x0e"
                        "bh\x0e"
                        "b.")),
       "an object built twice"},
      {"deep tuples", "(2,)", "\x80\x03N" + std::string(100000, '\x85') + ".",
       "tuples nested more than 8 deep"},
  };
  for (const auto& c : cases)
    EXPECT_NE(error_of(c.header_shape, c.pickle).find(c.message), std::string::npos)
        << c.name << ": " << error_of(c.header_shape, c.pickle);
}

// A 1 MiB string referenced 2^20 times costs 2 MiB of pickle and would be a TiB of strings.
TEST(NpyObject, RepeatedStringsAreBoundedByThePickleSize) {
  const size_t n = size_t{1} << 20;
  std::string elements = unicode(std::string(n, 'z')) + raw("q\x0e");
  for (size_t i = 1; i < n; ++i) elements += raw("h\x0e");
  const std::string shape = raw("J\x00\x00\x10\x00\x85q\x06");  // (2^20,)
  EXPECT_NE(error_of("(1048576,)", numpy_pickle(shape, elements))
                .find("its strings, with the repeated ones counted each time, pass"),
            std::string::npos);
}

// numpy saves strings from an object array; `bough run` feeds them to a string model and
// writes the output, which numpy reads back equal.
TEST(NpyObject, RunFeedsAnObjectArrayToAStringModel) {
  const std::string dir = test::scratch_dir("npy_object_run");
  const std::string model = test::identity_model(dir, "m.onnx", ElemType::String);
  std::string out;
  ASSERT_EQ(
      test::run_python("import numpy as np\n"
                       "np.save('" +
                           dir + "/x.npy', np.array([['hé', 'hé'], ['', 'by']], dtype=object))\n",
                       &out),
      0)
      << out;
  ASSERT_EQ(test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(dir + "/x.npy") +
                              " --output-dir " + shell_quoted(dir + "/out"),
                          &out),
            0)
      << out;
  EXPECT_NE(out.find("y: tensor(string)[2,2]"), std::string::npos) << out;
  ASSERT_EQ(
      test::run_python("import numpy as np\n"
                       "x = np.load('" +
                           dir +
                           "/x.npy', allow_pickle=True)\n"
                           "y = np.load('" +
                           dir +
                           "/out/y.npy')\n"
                           "assert y.dtype.kind == 'U' and (x.astype(str) == y).all(), (x, y)\n",
                       &out),
      0)
      << out;
}

}  // namespace
}  // namespace bough
