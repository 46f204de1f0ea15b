// Scatter*Update and NonZero (formats/openvino/ops/gather.cc), both ways: hand-written IR
// run as read and after IR -> ONNX -> IR (run_ir), and ONNX nodes written as IR. Expected
// values are worked out by hand from OpenVINO's specifications.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

std::vector<float> run_net(const std::string& dir, const std::string& xml, const std::string& bin,
                           const Tensor& x) {
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml, bin), {{"x", x}});
  return floats_of(out[0].second.tensor());
}

// ScatterNDUpdate on x [4] = [1, 2, 3, 4] with indices [[i0], [i1]] and updates [10, 20].
std::vector<float> scatter_nd(const std::string& dir, const std::string& version,
                              const std::string& data, int64_t i0, int64_t i1) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}},
                                            {test::ov_const(1, "idx", {2, 1}, "i64", 0), {2, 1}},
                                            {test::ov_const(2, "upd", {2}, "f32", 16), {2}}},
                                           "ScatterNDUpdate", version, data, {4}, "y");
  return run_net(dir, xml, test::bytes_of<int64_t>({i0, i1}) + test::bytes_of<float>({10, 20}),
                 f32({4}, {1, 2, 3, 4}));
}

TEST(OpenVinoScatter, ScatterNdUpdateAndItsReductions) {
  EXPECT_EQ(scatter_nd("ov_scatter_nd", "opset3", "", 1, 3), (std::vector<float>{1, 10, 3, 20}));
  // ScatterNDUpdate-15 with sum: both updates onto x[1]: 2 + 10 + 20.
  EXPECT_EQ(scatter_nd("ov_scatter_nd_sum", "opset15", R"(reduction="SUM")", 1, 1),
            (std::vector<float>{1, 32, 3, 4}));
}

// ScatterElementsUpdate-12 along axis 0 of [1, 2, 3, 4]: indices [0, 2], updates [5, 0].
TEST(OpenVinoScatter, ScatterElementsUpdateWithMax) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}},
                                            {test::ov_const(1, "idx", {2}, "i64", 0), {2}},
                                            {test::ov_const(2, "upd", {2}, "f32", 16), {2}},
                                            {test::ov_const(3, "axis", {}, "i64", 24), {}}},
                                           "ScatterElementsUpdate", "opset12",
                                           R"(reduction="max" use_init_val="true")", {4}, "y");
  std::string bin = test::bytes_of<int64_t>({0, 2}) + test::bytes_of<float>({5, 0}) +
                    test::bytes_of<int64_t>({0});
  // max(1, 5) = 5 at 0, max(3, 0) = 3 at 2
  EXPECT_EQ(run_net("ov_scatter_el", xml, bin, f32({4}, {1, 2, 3, 4})),
            (std::vector<float>{5, 2, 3, 4}));
  // mean has no ONNX form
  std::string mean = test::replaced(xml, R"(reduction="max")", R"(reduction="mean")");
  EXPECT_EQ(test::ir_load_error("ov_scatter_el_mean", mean, bin).kind(), ErrorKind::Unsupported);
}

// ScatterUpdate-3 along axis 0 of x [3, 2] = 1..6: indices [2, 0] take update rows
// [10, 20] and [30, 40].
TEST(OpenVinoScatter, ScatterUpdateAlongTheFirstAxis) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {3, 2}), {3, 2}},
                                            {test::ov_const(1, "idx", {2}, "i64", 0), {2}},
                                            {test::ov_const(2, "upd", {2, 2}, "f32", 16), {2, 2}},
                                            {test::ov_const(3, "axis", {}, "i64", 32), {}}},
                                           "ScatterUpdate", "opset3", "", {3, 2}, "y");
  std::string bin = test::bytes_of<int64_t>({2, 0}) + test::bytes_of<float>({10, 20, 30, 40}) +
                    test::bytes_of<int64_t>({0});
  EXPECT_EQ(run_net("ov_scatter_update", xml, bin, f32({3, 2}, {1, 2, 3, 4, 5, 6})),
            (std::vector<float>{30, 40, 3, 4, 10, 20}));
}

// NonZero-3 of [0, 2, 0, 3]: the indices [[1, 3]], as i32.
TEST(OpenVinoScatter, NonZeroAsI32) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, "NonZero",
                                           "opset3", R"(output_type="i32")", {1, 2}, "y");
  xml = test::replaced(xml, R"(precision="FP32" names="y")", R"(precision="I32" names="y")");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_nonzero"), "m", xml),
                                 {{"x", f32({4}, {0, 2, 0, 3})}});
  const Tensor& y = out[0].second.tensor();
  ASSERT_EQ(y.type(), ElemType::Int32);
  EXPECT_EQ(y.shape().vec(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(std::vector<int32_t>(y.data<int32_t>(), y.data<int32_t>() + 2),
            (std::vector<int32_t>{1, 3}));
}

// ONNX's ScatterND with reduction add and ScatterElements along axis 1, written as IR.
TEST(OpenVinoScatter, OnnxScattersWrittenAsIr) {
  auto write = [](const std::string& op, const Tensor& indices, const Tensor& updates,
                  const std::function<void(onnxpb::NodeProto&)>& attrs, const std::string& expect,
                  const Tensor& x) {
    test::GraphBuilder g;
    g.input("x", x.type(), x.shape().vec()).output("y", x.type(), {}, false);
    g.initializer("idx", indices).initializer("upd", updates);
    attrs(g.node(op, {"x", "idx", "upd"}, {"y"}));
    std::string dir = test::scratch_dir("ov_write_" + op);
    auto model = onnx::read_model_file(test::save_model(test::make_model(g, 18), dir, "m.onnx"));
    openvino::IrFiles files = openvino::write_ir(*model);
    EXPECT_NE(files.xml.find(expect), std::string::npos) << files.xml;
    return floats_of(
        test::run_ir(test::save_ir(dir, "m", files.xml, files.bin), {{"x", x}})[0].second.tensor());
  };
  // x[1] += 10 + 20
  EXPECT_EQ(write(
                "ScatterND", test::i64({2, 1}, {1, 1}), f32({2}, {10, 20}),
                [](onnxpb::NodeProto& n) { test::set_string(n, "reduction", "add"); },
                R"(reduction="sum")", f32({4}, {1, 2, 3, 4})),
            (std::vector<float>{1, 32, 3, 4}));
  // along axis 1 of [[1, 2], [3, 4]]: row 0 column 1 = 7, row 1 column 0 = 8
  EXPECT_EQ(write(
                "ScatterElements", test::i64({2, 1}, {1, 0}), f32({2, 1}, {7, 8}),
                [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); },
                R"(type="ScatterElementsUpdate")", f32({2, 2}, {1, 2, 3, 4})),
            (std::vector<float>{1, 7, 8, 4}));
}

}  // namespace
}  // namespace bough
