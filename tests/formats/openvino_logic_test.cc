// Bitwise-13 and ReduceLogicalAnd/Or-1 (formats/openvino/ops/elementwise.cc, math.cc), both
// ways; expected values worked out by hand from OpenVINO's specifications.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

std::vector<int64_t> i64s_of(const Tensor& t) {
  return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
}

std::vector<bool> bools_of(const Tensor& t) {
  std::vector<bool> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.data<bool>()[i]);
  return v;
}

// BitwiseAnd-13 of int64 [12, 10, 7] and [10, 6, 1]: 1100 & 1010, 1010 & 0110, 0111 & 0001.
TEST(OpenVinoLogic, BitwiseAndOfIntegers) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {3}, "i64"), {3}}, {test::ov_const(1, "y", {3}, "i64", 0), {3}}},
      "BitwiseAnd", "opset13", "", {3}, "z");
  xml = test::replaced(xml, R"(precision="FP32" names="z")", R"(precision="I64" names="z")");
  NamedValues out = test::run_ir(
      test::save_ir(test::scratch_dir("ov_bitwise_and"), "m", xml,
                    test::bytes_of<int64_t>({10, 6, 1})),
      {{"x", Value(Tensor::from_vector(ElemType::Int64, {3}, std::vector<int64_t>{12, 10, 7}))}});
  EXPECT_EQ(i64s_of(out[0].second.tensor()), (std::vector<int64_t>{8, 2, 1}));
}

// Of bool, BitwiseXor is the logical xor: [T, T, F, F] ^ [T, F, T, F].
TEST(OpenVinoLogic, BitwiseXorOfBoolIsLogical) {
  std::string xml =
      test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}, "boolean"), {4}},
                              {test::ov_parameter(1, "y", {4}, "boolean"), {4}}},
                             "BitwiseXor", "opset13", R"(auto_broadcast="numpy")", {4}, "z");
  xml = test::replaced(xml, R"(precision="FP32" names="z")", R"(precision="BOOL" names="z")");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_bitwise_xor"), "m", xml),
                                 {{"x", test::boolean({4}, {true, true, false, false})},
                                  {"y", test::boolean({4}, {true, false, true, false})}});
  EXPECT_EQ(bools_of(out[0].second.tensor()), (std::vector<bool>{false, true, true, false}));
}

// ReduceLogicalAnd/Or-1 over axis 1 of [[T, F], [T, T]]: and [F, T], or [T, T].
TEST(OpenVinoLogic, ReduceLogicalAndOr) {
  for (const auto& [type, want] : {std::pair{"ReduceLogicalAnd", std::vector<bool>{false, true}},
                                   std::pair{"ReduceLogicalOr", std::vector<bool>{true, true}}}) {
    std::string xml =
        test::ov_one_layer_net({{test::ov_parameter(0, "x", {2, 2}, "boolean"), {2, 2}},
                                {test::ov_const(1, "axes", {1}, "i64", 0), {1}}},
                               type, "opset1", R"(keep_dims="false")", {2}, "y");
    xml = test::replaced(xml, R"(precision="FP32" names="y")", R"(precision="BOOL" names="y")");
    NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_reduce_logical"), "m", xml,
                                                 test::bytes_of<int64_t>({1})),
                                   {{"x", test::boolean({2, 2}, {true, false, true, true})}});
    EXPECT_EQ(bools_of(out[0].second.tensor()), want) << type;
  }
}

// ONNX's ReduceMin of bool (opset 20) is written as ReduceLogicalAnd.
TEST(OpenVinoLogic, OnnxReduceMinOfBoolWrittenAsReduceLogicalAnd) {
  test::GraphBuilder g;
  g.input("x", ElemType::Bool, {2, 2}).output("y", ElemType::Bool, {}, false);
  g.initializer("axes", test::i64({1}, {1}));
  test::set_int(g.node("ReduceMin", {"x", "axes"}, {"y"}), "keepdims", 0);
  std::string dir = test::scratch_dir("ov_write_reduce_bool");
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 20), dir, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  EXPECT_NE(files.xml.find(R"(type="ReduceLogicalAnd")"), std::string::npos) << files.xml;
  NamedValues out = test::run_ir(test::save_ir(dir, "m", files.xml, files.bin),
                                 {{"x", test::boolean({2, 2}, {true, false, true, true})}});
  EXPECT_EQ(bools_of(out[0].second.tensor()), (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace bough
