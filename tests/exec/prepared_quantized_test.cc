// ConvInteger, QLinearConv and MatMulInteger with a constant weight and zero point (folded into the
// weight once at plan time) against the same models with them fed as graph inputs, on
// random shapes and zero points, at 1 and 2 threads, from each kind of constant.
#include <gtest/gtest.h>

#include "exec/prepared_models.h"

namespace bough::test {
namespace {

const WeightSource kSources[] = {WeightSource::Initializer, WeightSource::Constant,
                                 WeightSource::Folded, WeightSource::OuterConstant};
const char* const kNests[] = {"", "I", "LI", "S"};

TEST(PreparedQuantized, ConvIntegerMatchesTheUnpreparedPath) {
  Random r(31);
  for (int i = 0; i < 12; ++i) {
    const int64_t groups = r.pick(1, 2), cg = r.pick(1, 3), mg = r.pick(1, 3), k = r.pick(1, 3);
    const ElemType wt = r.pick(0, 1) ? ElemType::UInt8 : ElemType::Int8;
    NodeCase c;
    c.op = "ConvInteger";
    c.opset = 10;
    c.data.emplace_back("x", r.bytes(ElemType::UInt8, {1, groups * cg, r.pick(k, 6)}));
    c.data.emplace_back("x_zp", r.bytes(ElemType::UInt8, {}));
    c.weights.emplace_back("w", r.bytes(wt, {groups * mg, cg, k}));
    const bool per_channel = r.pick(0, 1);
    c.weights.emplace_back("w_zp", r.bytes(wt, per_channel ? Dims64{groups * mg} : Dims64{}));
    c.inputs = {"x", "w", "x_zp", "w_zp"};
    c.attrs = [=](onnxpb::NodeProto& n) { set_int(n, "group", groups); };
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, kSources[i % 4], kNests[i % 4], threads, 2);
  }
}

TEST(PreparedQuantized, QLinearConvMatchesTheUnpreparedPath) {
  Random r(33);
  for (int i = 0; i < 12; ++i) {
    const int64_t groups = r.pick(1, 2), cg = r.pick(1, 3), mg = r.pick(1, 3), k = r.pick(1, 3);
    const int64_t m = groups * mg;
    const ElemType wt = r.pick(0, 1) ? ElemType::UInt8 : ElemType::Int8;
    const bool per_channel = r.pick(0, 1);
    NodeCase c;
    c.op = "QLinearConv";
    c.opset = 10;
    c.data.emplace_back("x", r.bytes(ElemType::UInt8, {1, groups * cg, r.pick(k, 6)}));
    c.data.emplace_back("x_scale", f32({}, {0.02f}));
    c.data.emplace_back("x_zp", r.bytes(ElemType::UInt8, {}));
    c.weights.emplace_back("w", r.bytes(wt, {m, cg, k}));
    c.weights.emplace_back("w_zp", r.bytes(wt, per_channel ? Dims64{m} : Dims64{}));
    std::vector<float> w_scale(static_cast<size_t>(per_channel ? m : 1));
    for (float& s : w_scale) s = 0.01f * static_cast<float>(r.pick(1, 5));
    c.data.emplace_back("w_scale", f32(per_channel ? Dims64{m} : Dims64{}, w_scale));
    c.data.emplace_back("y_scale", f32({}, {0.5f}));
    c.data.emplace_back("y_zp", r.bytes(ElemType::Int8, {}));
    c.inputs = {"x", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp"};
    c.attrs = [=](onnxpb::NodeProto& n) { set_int(n, "group", groups); };
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, kSources[i % 4], kNests[i % 4], threads, 2);
  }
}

TEST(PreparedQuantized, MatMulIntegerMatchesTheUnpreparedPath) {
  Random r(32);
  for (int i = 0; i < 12; ++i) {
    const int64_t m = r.pick(1, 4), k = r.pick(1, 5), n = r.pick(1, 4);
    const ElemType bt = r.pick(0, 1) ? ElemType::UInt8 : ElemType::Int8;
    NodeCase c;
    c.op = "MatMulInteger";
    c.opset = 10;
    c.data.emplace_back("a", r.bytes(ElemType::UInt8, {m, k}));
    c.weights.emplace_back("b", r.bytes(bt, {k, n}));
    const bool with_zp = r.pick(0, 2) != 0;
    if (with_zp) c.weights.emplace_back("b_zp", r.bytes(bt, r.pick(0, 1) ? Dims64{n} : Dims64{}));
    c.inputs = {"a", "b", "", with_zp ? "b_zp" : ""};
    for (int threads : {1, 2})
      expect_same_as_unprepared(c, kSources[i % 4], kNests[i % 4], threads, c.weights.size());
  }
}

// Worked by hand: A = [[1, 2]] (uint8), B = [[3], [5]] (uint8) with b_zero_point 2:
// (1·(3 - 2) + 2·(5 - 2)) = 7.
TEST(PreparedQuantized, MatMulIntegerByHand) {
  NodeCase c;
  c.op = "MatMulInteger";
  c.opset = 10;
  Tensor a(ElemType::UInt8, Dims{1, 2}), b(ElemType::UInt8, Dims{2, 1}),
      zp(ElemType::UInt8, Dims{});
  a.data<uint8_t>()[0] = 1, a.data<uint8_t>()[1] = 2;
  b.data<uint8_t>()[0] = 3, b.data<uint8_t>()[1] = 5;
  zp.data<uint8_t>()[0] = 2;
  c.data.emplace_back("a", a);
  c.weights.emplace_back("b", b);
  c.weights.emplace_back("b_zp", zp);
  c.inputs = {"a", "b", "", "b_zp"};
  const std::string path = save_nested(c, WeightSource::Initializer, "");
  EXPECT_EQ(prepared_weights(path), 2u);
  EXPECT_EQ(run_nested(c, WeightSource::Initializer, "", path, 1)[0], (std::vector<double>{7}));
}

}  // namespace
}  // namespace bough::test
