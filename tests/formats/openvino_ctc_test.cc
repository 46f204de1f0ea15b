// CTCGreedyDecoderSeqLen-6 (formats/openvino/ops/ctc.cc, ops/openvino/
// ctc_greedy_decoder_seq_len.cc) read from hand-written IR, run as read and after IR -> ONNX
// -> IR (run_ir). Expected values are worked out by hand from the specification.
//
// Logits [N = 2, T = 4, C = 3]; the largest class per step (the first of equal ones):
//   batch 0: [.9 .05 .05] -> 0, [.6 .3 .1] -> 0, [.1 .1 .8] -> 2, [.4 .4 .2] -> 0 (a tie)
//   batch 1: [.1 .8 .1] -> 1, [.2 .7 .1] -> 1, then steps past its length 2
#include <gtest/gtest.h>

#include "bough/session.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::int64s_of;

std::string dims(std::initializer_list<int> ds) {
  std::string s;
  for (int d : ds) s += "<dim>" + std::to_string(d) + "</dim>";
  return s;
}

std::string param(int id, const std::string& name, const std::string& type,
                  const std::string& shape, const std::string& port_dims) {
  const std::string precision = type == "f32" ? "FP32" : type == "i32" ? "I32" : "I64";
  return "<layer id=\"" + std::to_string(id) + "\" name=\"" + name +
         "\" type=\"Parameter\" version=\"opset1\"><data shape=\"" + shape + "\" element_type=\"" +
         type + "\"/><output><port id=\"0\" precision=\"" + precision + "\" names=\"" + name +
         "\">" + port_dims + "</port></output></layer>";
}

std::string precision(const std::string& type) { return type == "i32" ? "I32" : "I64"; }

// data f32 [2, 4, 3] and sequence_length (`seq_type`) [2], and with `blank` a blank_index
// Parameter of shape [1]; the outputs go to Results "decoded" and "length".
std::string ctc_net(const std::string& data, const std::string& classes, const std::string& lengths,
                    const std::string& seq_type, bool blank) {
  std::string layers = param(0, "logits", "f32", "2,4,3", dims({2, 4, 3})) +
                       param(1, "seq", seq_type, "2", dims({2}));
  if (blank) layers += param(2, "blank", seq_type, "1", dims({1}));
  const int in = blank ? 3 : 2;
  layers +=
      "<layer id=\"3\" name=\"ctc\" type=\"CTCGreedyDecoderSeqLen\" version=\"opset6\">"
      "<data " +
      data + "/><input><port id=\"0\" precision=\"FP32\">" + dims({2, 4, 3}) +
      "</port><port id=\"1\" precision=\"" + precision(seq_type) + "\">" + dims({2}) + "</port>" +
      (blank ? "<port id=\"2\" precision=\"" + precision(seq_type) + "\">" + dims({1}) + "</port>"
             : "") +
      "</input><output><port id=\"" + std::to_string(in) + "\" precision=\"" + precision(classes) +
      "\" names=\"decoded\">" + dims({2, 4}) + "</port><port id=\"" + std::to_string(in + 1) +
      "\" precision=\"" + precision(lengths) + "\" names=\"length\">" + dims({2}) +
      "</port></output></layer>";
  layers +=
      "<layer id=\"4\" name=\"decoded/sink_port_0\" type=\"Result\" version=\"opset1\">"
      "<input><port id=\"0\" precision=\"" +
      precision(classes) + "\">" + dims({2, 4}) +
      "</port></input></layer>"
      "<layer id=\"5\" name=\"length/sink_port_0\" type=\"Result\" version=\"opset1\">"
      "<input><port id=\"0\" precision=\"" +
      precision(lengths) + "\">" + dims({2}) + "</port></input></layer>";
  std::string edges =
      "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"3\" to-port=\"0\"/>"
      "<edge from-layer=\"1\" from-port=\"0\" to-layer=\"3\" to-port=\"1\"/>";
  if (blank) edges += "<edge from-layer=\"2\" from-port=\"0\" to-layer=\"3\" to-port=\"2\"/>";
  edges += "<edge from-layer=\"3\" from-port=\"" + std::to_string(in) +
           "\" to-layer=\"4\" to-port=\"0\"/><edge from-layer=\"3\" from-port=\"" +
           std::to_string(in + 1) + "\" to-layer=\"5\" to-port=\"0\"/>";
  return "<?xml version=\"1.0\"?>\n<net name=\"ctc\" version=\"11\"><layers>" + layers +
         "</layers><edges>" + edges + "</edges></net>\n";
}

Tensor logits() {
  return f32({2, 4, 3}, {0.9f, 0.05f, 0.05f, 0.6f, 0.3f, 0.1f, 0.1f, 0.1f, 0.8f, 0.4f, 0.4f, 0.2f,
                         0.1f, 0.8f,  0.1f,  0.2f, 0.7f, 0.1f, 0.9f, 0.0f, 0.1f, 0.9f, 0.0f, 0.1f});
}

Tensor ints(ElemType t, test::Dims64 d, std::vector<int64_t> v) {
  Tensor x = test::i64(d, v);
  if (t == ElemType::Int64) return x;
  Tensor y(ElemType::Int32, Dims(std::span<const int64_t>(d)));
  for (size_t i = 0; i < v.size(); ++i) y.data<int32_t>()[i] = static_cast<int32_t>(v[i]);
  return y;
}

struct Decoded {
  std::vector<int64_t> classes, lengths;
};

Decoded run_ctc(const std::string& dir, const std::string& data, const std::string& classes,
                const std::string& lengths, const std::string& seq_type,
                std::optional<int64_t> blank) {
  const ElemType seq = seq_type == "i32" ? ElemType::Int32 : ElemType::Int64;
  NamedValues in{{"logits", logits()}, {"seq", ints(seq, {2}, {4, 2})}};
  if (blank) in.emplace_back("blank", ints(seq, {1}, {*blank}));
  const std::string xml = ctc_net(data, classes, lengths, seq_type, blank.has_value());
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml), in);
  EXPECT_EQ(out.size(), 2u);
  const Tensor& d = out[0].second.tensor();
  const Tensor& l = out[1].second.tensor();
  EXPECT_EQ(d.type(), classes == "i32" ? ElemType::Int32 : ElemType::Int64);
  EXPECT_EQ(l.type(), lengths == "i32" ? ElemType::Int32 : ElemType::Int64);
  EXPECT_EQ(d.shape().vec(), (std::vector<int64_t>{2, 4}));
  return {int64s_of(d), int64s_of(l)};
}

// Defaults (merge_repeated, i32 outputs, blank C - 1 = 2): batch 0 emits 0, drops the repeat,
// drops the blank, emits 0 again (the blank separated them); batch 1 stops after 2 steps.
TEST(OpenVinoCtc, MergesRepeatsAndDropsBlanks) {
  Decoded got = run_ctc("ov_ctc_default", "", "i32", "i32", "i32", std::nullopt);
  EXPECT_EQ(got.classes, (std::vector<int64_t>{0, 0, -1, -1, 1, -1, -1, -1}));
  EXPECT_EQ(got.lengths, (std::vector<int64_t>{2, 1}));
}

// Without merging, each non-blank step emits: 0 0 _ 0 and 1 1; outputs as i64 and i32.
TEST(OpenVinoCtc, KeepsRepeatsWithoutMerging) {
  Decoded got =
      run_ctc("ov_ctc_no_merge",
              R"(merge_repeated="false" classes_index_type="i64" sequence_length_type="i32")",
              "i64", "i32", "i64", std::nullopt);
  EXPECT_EQ(got.classes, (std::vector<int64_t>{0, 0, 0, -1, 1, 1, -1, -1}));
  EXPECT_EQ(got.lengths, (std::vector<int64_t>{3, 2}));
}

// blank_index 0: batch 0's only emission is class 2; batch 1 merges 1 1.
TEST(OpenVinoCtc, BlankIndexInput) {
  Decoded got = run_ctc("ov_ctc_blank", R"(classes_index_type="i64" sequence_length_type="i64")",
                        "i64", "i64", "i64", 0);
  EXPECT_EQ(got.classes, (std::vector<int64_t>{2, -1, -1, -1, 1, -1, -1, -1}));
  EXPECT_EQ(got.lengths, (std::vector<int64_t>{1, 1}));
}

// Written back as CTCGreedyDecoderSeqLen-6 with OpenVINO's attribute spellings.
TEST(OpenVinoCtc, WrittenBackAsIr) {
  const std::string xml =
      ctc_net(R"(merge_repeated="false" classes_index_type="i64")", "i64", "i32", "i32", false);
  std::unique_ptr<ir::Model> m(openvino::read_model_text(xml, nullptr, "ctc.xml"));
  const std::string again = openvino::write_ir(*m).xml;
  EXPECT_NE(again.find(R"(type="CTCGreedyDecoderSeqLen" version="opset6")"), std::string::npos)
      << again;
  EXPECT_NE(again.find(R"(merge_repeated="false")"), std::string::npos) << again;
  EXPECT_NE(again.find(R"(classes_index_type="i64")"), std::string::npos) << again;
  EXPECT_NE(again.find(R"(sequence_length_type="i32")"), std::string::npos) << again;
}

// A sequence longer than T is refused when the model runs.
TEST(OpenVinoCtc, RefusesASequenceLongerThanT) {
  const std::string xml = ctc_net("", "i32", "i32", "i32", false);
  Session s(Model::load(test::save_ir(test::scratch_dir("ov_ctc_long"), "m", xml)));
  try {
    s.run({{"logits", logits()}, {"seq", ints(ElemType::Int32, {2}, {5, 1})}});
    FAIL() << "ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("sequence_length[0] is 5, outside 0..4"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace bough
