// The math, activation and indexing operators on what the conformance tests leave out:
// bad indices and arguments (which must fail with BadInput, not crash), broadcasting
// corners, reductions on narrow floats, and Einsum forms beyond the tested ones. Expected
// values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "bough/error.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Attrs;
using test::Dims64;
using test::doubles_of;
using test::expect_bad_input;
using test::expect_invalid_model;
using test::f32;
using test::i64;
using test::set_string;

template <typename T>
Tensor make(ElemType type, Dims64 dims, std::vector<T> values) {
  return Tensor::from_vector<T>(type, Dims(std::span<const int64_t>(dims)), values);
}

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins, int outputs,
                           const test::Attrs& attrs = {}, int64_t opset = 24, int threads = 1) {
  return test::run_node(op, ins, outputs, attrs, opset, "mathidx", threads);
}

Tensor run1(const std::string& op, const std::vector<std::pair<std::string, Tensor>>& ins,
            const Attrs& attrs = {}, int64_t opset = 24) {
  return run_op(op, ins, 1, attrs, opset)[0];
}

// ---------------------------------------------------------------------------------------
// Indexing operators reject bad indices.

TEST(MathIndexTest, ScatterElementsRejectsAnIndexOutOfRange) {
  expect_bad_input([] {
    run1("ScatterElements",
         {{"d", f32({2, 2}, {1, 2, 3, 4})}, {"i", i64({1, 1}, {2})}, {"u", f32({1, 1}, {9})}});
  });
}

TEST(MathIndexTest, ScatterElementsWithNegativeIndexAndMaxOnFloat16) {
  Tensor d = f32({1, 3}, {1, 5, 3});
  Tensor y =
      run1("ScatterElements", {{"d", d}, {"i", i64({1, 2}, {-1, 1})}, {"u", f32({1, 2}, {7, 2})}},
           [](onnxpb::NodeProto& n) {
             test::set_int(n, "axis", 1);
             set_string(n, "reduction", "max");
           });
  // Column 2: max(3, 7) = 7; column 1: max(5, 2) = 5.
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 5, 7}));
}

TEST(MathIndexTest, ScatterNDRejectsAnIndexOutOfRangeAndABadUpdateShape) {
  expect_bad_input([] {
    run1("ScatterND", {{"d", f32({3}, {1, 2, 3})}, {"i", i64({1, 1}, {-4})}, {"u", f32({1}, {9})}});
  });
  expect_bad_input([] {
    run1("ScatterND",
         {{"d", f32({3}, {1, 2, 3})}, {"i", i64({1, 1}, {0})}, {"u", f32({2}, {9, 9})}});
  });
  expect_bad_input([] {  // tuples longer than data's rank
    run1("ScatterND",
         {{"d", f32({3}, {1, 2, 3})}, {"i", i64({1, 2}, {0, 0})}, {"u", f32({1}, {9})}});
  });
}

TEST(MathIndexTest, ScatterNDAddsDuplicateIndices) {
  Tensor y = run1("ScatterND",
                  {{"d", f32({3}, {1, 2, 3})}, {"i", i64({2, 1}, {1, 1})}, {"u", f32({2}, {5, 6})}},
                  [](onnxpb::NodeProto& n) { set_string(n, "reduction", "add"); });
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 13, 3}));
}

TEST(MathIndexTest, GatherOfOneElementByAScalarIndex) {
  // The shortcut for a scalar index into a vector: a scalar result, negative indices from
  // the back, int32 indices, any byte-sized type, axis -1; strings take the general path.
  Tensor y = run1("Gather", {{"d", f32({3}, {1, 2, 3})}, {"i", i64({}, {-1})}});
  EXPECT_EQ(y.shape(), Dims{});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{3}));
  y = run1("Gather",
           {{"d", make<double>(ElemType::Double, {2}, {0.5, 1.5})},
            {"i", make<int32_t>(ElemType::Int32, {}, {1})}},
           [](onnxpb::NodeProto& n) { test::set_int(n, "axis", -1); });
  EXPECT_EQ(y.type(), ElemType::Double);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1.5}));
  y = run1("Gather", {{"d", make<bool>(ElemType::Bool, {2}, {false, true})}, {"i", i64({}, {1})}});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1}));
  y = run1("Gather",
           {{"d", make<std::string>(ElemType::String, {2}, {"a", "bc"})}, {"i", i64({}, {1})}});
  EXPECT_EQ(y.data<std::string>()[0], "bc");
  expect_bad_input([&] { run1("Gather", {{"d", f32({3}, {1, 2, 3})}, {"i", i64({}, {3})}}); });
  expect_bad_input([&] { run1("Gather", {{"d", f32({3}, {1, 2, 3})}, {"i", i64({}, {-4})}}); });
  // Float indices break Gather's type constraint: the check refuses the model.
  expect_invalid_model([&] { run1("Gather", {{"d", f32({3}, {1, 2, 3})}, {"i", f32({}, {0})}}); });
  // An axis out of range is refused by the check, before any run.
  expect_invalid_model([&] {
    run1("Gather", {{"d", f32({3}, {1, 2, 3})}, {"i", i64({}, {0})}},
         [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); });
  });
}

TEST(MathIndexTest, GatherNDWithBatchDimsAndBadIndices) {
  // data [2, 2, 2], batch_dims 1, indices [2, 1]: batch 0 row 1, batch 1 row 0.
  Tensor d = f32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor y = run1("GatherND", {{"d", d}, {"i", i64({2, 1}, {1, 0})}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "batch_dims", 1); });
  EXPECT_EQ(y.shape(), (Dims{2, 2}));
  EXPECT_EQ(doubles_of(y), (std::vector<double>{2, 3, 4, 5}));
  expect_bad_input([&] { run1("GatherND", {{"d", d}, {"i", i64({1, 2}, {0, 2})}}); });
  expect_bad_input([&] {
    run1("GatherND", {{"d", d}, {"i", i64({3, 1}, {0, 0, 0})}},
         [](onnxpb::NodeProto& n) { test::set_int(n, "batch_dims", 1); });
  });
}

TEST(MathIndexTest, OneHotOutOfRangeRowsAndFloatIndices) {
  Tensor y =
      run1("OneHot",
           {{"i", f32({3}, {1.0f, -1.0f, 7.0f})}, {"n", i64({}, {3})}, {"v", f32({2}, {0, 5})}});
  EXPECT_EQ(y.shape(), (Dims{3, 3}));
  EXPECT_EQ(doubles_of(y), (std::vector<double>{0, 5, 0, 0, 0, 5, 0, 0, 0}));
  expect_bad_input([] {
    run1("OneHot", {{"i", i64({1}, {0})}, {"n", i64({}, {-2})}, {"v", f32({2}, {0, 1})}});
  });
  // An axis out of range is refused by the check, before any run.
  expect_invalid_model([] {
    run1("OneHot", {{"i", i64({1}, {0})}, {"n", i64({}, {2})}, {"v", f32({2}, {0, 1})}},
         [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 3); });
  });
}

TEST(MathIndexTest, CompressRejectsAConditionPastTheAxis) {
  expect_bad_input([] {
    run1("Compress", {{"x", f32({2}, {1, 2})}, {"c", test::boolean({3}, {false, true, true})}});
  });
  Tensor y = run1("Compress", {{"x", f32({2, 2}, {1, 2, 3, 4})}, {"c", test::boolean({1}, {true})}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); });
  EXPECT_EQ(y.shape(), (Dims{2, 1}));
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 3}));
}

TEST(MathIndexTest, ReverseSequenceRejectsLengthsPastTheSteps) {
  expect_bad_input([] {
    run1("ReverseSequence", {{"x", f32({2, 2}, {1, 2, 3, 4})}, {"l", i64({2}, {3, 1})}});
  });
  expect_bad_input([] {
    run1("ReverseSequence", {{"x", f32({2, 2}, {1, 2, 3, 4})}, {"l", i64({1}, {1})}});
  });
}

TEST(MathIndexTest, TopKRejectsKPastTheAxisAndPutsNaNFirst) {
  expect_bad_input([] { run_op("TopK", {{"x", f32({3}, {1, 2, 3})}, {"k", i64({1}, {4})}}, 2); });
  expect_bad_input([] { run_op("TopK", {{"x", f32({3}, {1, 2, 3})}, {"k", i64({1}, {-1})}}, 2); });
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = run_op("TopK", {{"x", f32({4}, {1, nan, 3, 3})}, {"k", i64({1}, {3})}}, 2);
  EXPECT_TRUE(std::isnan(r[0].data<float>()[0]));
  EXPECT_EQ(doubles_of(r[1]), (std::vector<double>{1, 2, 3}));
  auto k0 = run_op("TopK", {{"x", f32({3}, {1, 2, 3})}, {"k", i64({1}, {0})}}, 2);
  EXPECT_EQ(k0[0].numel(), 0);
}

TEST(MathIndexTest, TopKWithAttributeKBeforeOpset10) {
  auto r = run_op(
      "TopK", {{"x", f32({2, 3}, {1, 9, 3, 7, 2, 8})}}, 2,
      [](onnxpb::NodeProto& n) { test::set_int(n, "k", 2); }, 9);
  EXPECT_EQ(doubles_of(r[0]), (std::vector<double>{9, 3, 8, 7}));
  EXPECT_EQ(doubles_of(r[1]), (std::vector<double>{1, 2, 2, 0}));
}

// ---------------------------------------------------------------------------------------
// Shapes and arguments.

TEST(MathIndexTest, BadShapesAreBadInput) {
  expect_bad_input([] { run1("Trilu", {{"x", f32({3}, {1, 2, 3})}}); });
  // Shapes the inputs' declared types already rule out are refused by the check.
  expect_invalid_model([] {
    run1("DepthToSpace", {{"x", f32({1, 3, 1, 1}, {1, 2, 3})}},
         [](onnxpb::NodeProto& n) { test::set_int(n, "blocksize", 2); });
  });
  expect_invalid_model([] {
    run1("SpaceToDepth", {{"x", f32({1, 1, 3, 2}, {1, 2, 3, 4, 5, 6})}},
         [](onnxpb::NodeProto& n) { test::set_int(n, "blocksize", 2); });
  });
  // A non-square Det is refused by the check (inference) before it runs.
  expect_invalid_model([] { run1("Det", {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}}); });
  expect_bad_input([] { run1("CumSum", {{"x", f32({2}, {1, 2})}, {"a", i64({}, {1})}}); });
  expect_invalid_model([] { run1("EyeLike", {{"x", f32({2}, {1, 2})}}); });
  expect_bad_input([] {
    run1("PRelu", {{"x", f32({2, 2}, {1, 2, 3, 4})}, {"s", f32({3}, {1, 2, 3})}});
  });
}

TEST(MathIndexTest, ClipWithoutABoundKeepsNarrowInfinities) {
  // float16 -inf, inf, 65504 (the largest finite), -1; bfloat16 -inf, inf, 1.
  const Tensor h =
      Tensor::from_vector<uint16_t>(ElemType::Float16, Dims{4}, {0xFC00, 0x7C00, 0x7BFF, 0xBC00});
  const Tensor b =
      Tensor::from_vector<uint16_t>(ElemType::BFloat16, Dims{3}, {0xFF80, 0x7F80, 0x3F80});
  auto bits = [](const Tensor& t) {
    return std::vector<uint16_t>(t.data<uint16_t>(), t.data<uint16_t>() + t.numel());
  };
  EXPECT_EQ(bits(run1("Clip", {{"x", h}})), bits(h));
  EXPECT_EQ(bits(run1("Clip", {{"x", b}})), bits(b));
  // Only max = 0 (0x0000): -inf stays, inf and 65504 become 0, -1 stays.
  const Tensor zero = Tensor::from_vector<uint16_t>(ElemType::Float16, Dims{}, {0});
  EXPECT_EQ(bits(run1("Clip", {{"x", h}, {"", Tensor()}, {"hi", zero}})),
            (std::vector<uint16_t>{0xFC00, 0x0000, 0x0000, 0xBC00}));
}

TEST(MathIndexTest, TriluWithALargeK) {
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  Tensor up = run1("Trilu", {{"x", x}, {"k", i64({}, {std::numeric_limits<int64_t>::min()})}});
  EXPECT_EQ(doubles_of(up), (std::vector<double>{1, 2, 3, 4}));
  Tensor low = run1("Trilu", {{"x", x}, {"k", i64({}, {std::numeric_limits<int64_t>::max()})}},
                    [](onnxpb::NodeProto& n) { test::set_int(n, "upper", 0); });
  EXPECT_EQ(doubles_of(low), (std::vector<double>{1, 2, 3, 4}));
}

TEST(MathIndexTest, EyeLikeOffTheMatrixAndWithAType) {
  Tensor z = run1("EyeLike", {{"x", f32({2, 3}, {0, 0, 0, 0, 0, 0})}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "k", 5); });
  EXPECT_EQ(doubles_of(z), (std::vector<double>(6, 0.0)));
  Tensor e = run1("EyeLike", {{"x", f32({2, 3}, {0, 0, 0, 0, 0, 0})}}, [](onnxpb::NodeProto& n) {
    test::set_int(n, "k", -1);
    test::set_int(n, "dtype", static_cast<int>(ElemType::Int32));
  });
  ASSERT_EQ(e.type(), ElemType::Int32);
  EXPECT_EQ(doubles_of(e), (std::vector<double>{0, 0, 0, 1, 0, 0}));
}

TEST(MathIndexTest, PReluPerChannelSlopeBeforeOpset7) {
  // X [1, 2, 3], slope [2] (which does not broadcast): channel 0 scaled by 0.5, channel 1
  // by 2.
  Tensor x = f32({1, 2, 3}, {-2, 2, -2, -2, 2, -2});
  Tensor y = run1("PRelu", {{"x", x}, {"s", f32({2}, {0.5f, 2})}}, {}, 6);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{-1, 2, -1, -4, 2, -4}));
}

TEST(MathIndexTest, BitShiftByTheWidthGivesZero) {
  Tensor y = run1("BitShift",
                  {{"x", make<uint8_t>(ElemType::UInt8, {3}, {1, 1, 128})},
                   {"s", make<uint8_t>(ElemType::UInt8, {3}, {7, 8, 200})}},
                  [](onnxpb::NodeProto& n) { set_string(n, "direction", "LEFT"); });
  EXPECT_EQ(doubles_of(y), (std::vector<double>{128, 0, 0}));
}

TEST(MathIndexTest, IntegerModTakesTheDivisorsSignAndRejectsZero) {
  const Tensor a = make<int64_t>(ElemType::Int64, {4}, {-7, 7, -7, 7});
  const Tensor b = make<int64_t>(ElemType::Int64, {4}, {3, -3, -3, 3});
  // Python's %: -7 % 3 = 2, 7 % -3 = -2, -7 % -3 = -1, 7 % 3 = 1; C's fmod keeps a's sign.
  EXPECT_EQ(doubles_of(run1("Mod", {{"a", a}, {"b", b}})), (std::vector<double>{2, -2, -1, 1}));
  EXPECT_EQ(doubles_of(run1("Mod", {{"a", a}, {"b", b}},
                            [](onnxpb::NodeProto& n) { test::set_int(n, "fmod", 1); })),
            (std::vector<double>{-1, 1, -1, 1}));
  expect_bad_input([] {
    run1("Mod", {{"a", make<int32_t>(ElemType::Int32, {2}, {1, 2})},
                 {"b", make<int32_t>(ElemType::Int32, {2}, {1, 0})}});
  });
  // A zero far into a large tensor, in the chunk a worker thread computes with 2 threads.
  std::vector<int32_t> ones(1 << 18, 1);
  ones.back() = 0;
  expect_bad_input([&] {
    run_op("Mod",
           {{"a", make<int32_t>(ElemType::Int32, {1 << 18}, ones)},
            {"b", make<int32_t>(ElemType::Int32, {1 << 18}, ones)}},
           1, {}, 13, 2);
  });
}

TEST(MathIndexTest, ReduceLogSumExpOfLargeValues) {
  Tensor y = run1("ReduceLogSumExp", {{"x", f32({2}, {1000, 1000})}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "keepdims", 0); });
  EXPECT_NEAR(y.data<float>()[0], 1000 + std::log(2.0), 1e-3);
}

// Results computed in double and stored as integers saturate (util/from_double.h)
// instead of being undefined behaviour.
TEST(MathIndexTest, FloatResultsStoredAsIntegersSaturate) {
  const int64_t max64 = std::numeric_limits<int64_t>::max();
  const int64_t min64 = std::numeric_limits<int64_t>::lowest();
  auto no_keepdims = [](onnxpb::NodeProto& n) { test::set_int(n, "keepdims", 0); };
  // log(0 + 0) = -inf: the lowest int64.
  Tensor log_sum = run1("ReduceLogSum", {{"x", i64({2}, {0, 0})}}, no_keepdims, 17);
  EXPECT_EQ(log_sum.data<int64_t>()[0], min64);
  // log(exp(2^63 - 1)) is 2^63 - 1, which rounds to 2^63 in double: the largest int64.
  Tensor lse = run1("ReduceLogSumExp", {{"x", i64({1}, {max64})}}, no_keepdims, 17);
  EXPECT_EQ(lse.data<int64_t>()[0], max64);
  // Shrink with bias -1000: 127 - (-1000) = 1127 and -128 + (-1000) = -1128 leave int8.
  Tensor shrunk = run1("Shrink", {{"x", make<int8_t>(ElemType::Int8, {3}, {127, -128, 0})}},
                       [](onnxpb::NodeProto& n) { test::set_float(n, "bias", -1000.0f); });
  EXPECT_EQ(shrunk.data<int8_t>()[0], 127);
  EXPECT_EQ(shrunk.data<int8_t>()[1], -128);
  EXPECT_EQ(shrunk.data<int8_t>()[2], 0);
}

// Opset < 7 broadcasting matches B inside A from `axis`: [[1,2,3],[4,5,6]] + [10,20] at
// axis 0 adds 10 to the first row and 20 to the second.
TEST(MathIndexTest, LegacyBroadcastAtAnAxis) {
  auto at_axis = [](int64_t axis) {
    return [axis](onnxpb::NodeProto& n) {
      test::set_int(n, "broadcast", 1);
      test::set_int(n, "axis", axis);
    };
  };
  Tensor y = run1("Add", {{"a", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"b", f32({2}, {10, 20})}},
                  at_axis(0), 6);
  EXPECT_EQ(test::floats_of(y), (std::vector<float>{11, 12, 13, 24, 25, 26}));
}

// Found by the single-operator fuzzer: an axis of 2^63 - 1 wrapped `B's rank + axis`
// negative and the kernel padded B's shape with 1s until memory ran out
// (tests/fixtures/hostile/legacy_broadcast_axis_int64_max.onnx). An axis that leaves no room
// for B's dims in A's is bad input.
TEST(MathIndexTest, LegacyBroadcastAxisPastTheRankIsBadInput) {
  for (int64_t axis : {int64_t{2}, std::numeric_limits<int64_t>::max()}) {
    SCOPED_TRACE(axis);
    expect_bad_input([axis] {
      run1(
          "Add", {{"a", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"b", f32({3}, {1, 2, 3})}},
          [axis](onnxpb::NodeProto& n) {
            test::set_int(n, "broadcast", 1);
            test::set_int(n, "axis", axis);
          },
          6);
    });
  }
}

// Found by the single-operator fuzzer: blocksize 2^32 squared wrapped to 0 and inference
// divided by it (SIGFPE). Blocksizes are bounded so that their square fits.
TEST(MathIndexTest, HugeBlocksizeIsAnInvalidModelNotACrash) {
  for (const char* op : {"DepthToSpace", "SpaceToDepth"}) {
    expect_invalid_model([op] {
      run1(op, {{"x", f32({1, 4, 2, 2}, std::vector<float>(16, 1.0f))}},
           [](onnxpb::NodeProto& n) { test::set_int(n, "blocksize", int64_t{1} << 32); });
    });
  }
}

// Inference cannot check blocksize where it gives up on an input of unknown rank; then the
// kernel refuses it when it is built, with the same message.
TEST(MathIndexTest, BadBlocksizeOfAnUnrankedInputIsRefusedWhenBuilt) {
  for (const char* op : {"DepthToSpace", "SpaceToDepth"})
    for (const int64_t blocksize : {int64_t{0}, int64_t{1} << 32}) {
      SCOPED_TRACE(std::string(op) + " blocksize " + std::to_string(blocksize));
      test::GraphBuilder g;
      g.input("x", ElemType::Float, {}, false).output("y", ElemType::Float, {}, false);
      test::set_int(g.node(op, {"x"}, {"y"}, "b"), "blocksize", blocksize);
      const std::string path =
          test::save_model(test::make_model(g, 13), test::scratch_dir("blocksize"), "m.onnx");
      try {
        Session session(Model::load(path));
        ADD_FAILURE() << "no error";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
        EXPECT_NE(std::string(e.what()).find("blocksize must be from 1 to 2^31 - 1"),
                  std::string::npos)
            << e.what();
      }
    }
}

// Found by the single-operator fuzzer: a constant float depth of 8e34 was cast to int64
// during inference (undefined behaviour); it is now refused as not a finite size.
TEST(MathIndexTest, OneHotDepthBeyondInt64IsAnInvalidModel) {
  test::GraphBuilder g;
  g.input("i", ElemType::Int64, {2}).output("y", ElemType::Float, {2, -1});
  g.initializer("depth", f32({}, {8e34f})).initializer("values", f32({2}, {0, 1}));
  g.node("OneHot", {"i", "depth", "values"}, {"y"});
  const std::string path =
      test::save_model(test::make_model(g, 11), test::scratch_dir("onehot_depth"), "m.onnx");
  expect_invalid_model([&] { Session session(Model::load(path)); });
}

// Found by the single-operator fuzzer: constant Range bounds giving a NaN length were cast
// to int64 during inference. The length stays unknown there and the run fails clearly.
TEST(MathIndexTest, RangeOfNaNLengthFailsWhenRunNotDuringInference) {
  test::GraphBuilder g;
  g.output("y", ElemType::Float, {-1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  g.initializer("start", f32({}, {0})).initializer("limit", f32({}, {nan}));
  g.initializer("delta", f32({}, {1}));
  g.node("Range", {"start", "limit", "delta"}, {"y"}, "r");
  const std::string path =
      test::save_model(test::make_model(g, 17), test::scratch_dir("range_nan"), "m.onnx");
  Session session(Model::load(path), {.optimization = Optimization::none});
  expect_bad_input([&] { session.run({}); });
}

TEST(MathIndexTest, UniqueUnsortedWithNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = run_op("Unique", {{"x", f32({5}, {3, nan, 1, 3, nan})}}, 4,
                  [](onnxpb::NodeProto& n) { test::set_int(n, "sorted", 0); });
  ASSERT_EQ(r[0].numel(), 3);
  EXPECT_EQ(r[0].data<float>()[0], 3);
  EXPECT_TRUE(std::isnan(r[0].data<float>()[1]));
  EXPECT_EQ(doubles_of(r[1]), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(doubles_of(r[2]), (std::vector<double>{0, 1, 2, 0, 1}));
  EXPECT_EQ(doubles_of(r[3]), (std::vector<double>{2, 2, 1}));
}

TEST(MathIndexTest, ThreadedKernelsMatchOneThread) {
  // [64, 300, 40] is large enough for the kernels to split their outer loop.
  std::vector<float> v(64 * 300 * 40);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) / 10 - 5;
  const Tensor x = f32({64, 300, 40}, v);
  auto axis1 = [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); };
  for (const char* op : {"LogSoftmax", "Hardmax"}) {
    const Tensor one = run_op(op, {{"x", x}}, 1, axis1, 13, 1)[0];
    const Tensor four = run_op(op, {{"x", x}}, 1, axis1, 13, 4)[0];
    EXPECT_EQ(doubles_of(one), doubles_of(four)) << op;
  }
  const Tensor axis = i64({}, {1});
  EXPECT_EQ(doubles_of(run_op("CumSum", {{"x", x}, {"a", axis}}, 1, {}, 14, 1)[0]),
            doubles_of(run_op("CumSum", {{"x", x}, {"a", axis}}, 1, {}, 14, 4)[0]));
  const Tensor k = i64({1}, {5});
  auto top1 = run_op("TopK", {{"x", x}, {"k", k}}, 2, axis1, 24, 1);
  auto top4 = run_op("TopK", {{"x", x}, {"k", k}}, 2, axis1, 24, 4);
  EXPECT_EQ(doubles_of(top1[0]), doubles_of(top4[0]));
  EXPECT_EQ(doubles_of(top1[1]), doubles_of(top4[1]));
  auto eq = [](onnxpb::NodeProto& n) { set_string(n, "equation", "abc->ca"); };
  EXPECT_EQ(doubles_of(run_op("Einsum", {{"x", x}}, 1, eq, 12, 1)[0]),
            doubles_of(run_op("Einsum", {{"x", x}}, 1, eq, 12, 4)[0]));
}

// ---------------------------------------------------------------------------------------
// Einsum

Tensor einsum(const std::string& eq, const std::vector<std::pair<std::string, Tensor>>& ins) {
  return run1(
      "Einsum", ins, [&](onnxpb::NodeProto& n) { set_string(n, "equation", eq); }, 12);
}

TEST(MathIndexTest, EinsumImplicitOutputAndTrace) {
  Tensor a = f32({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(doubles_of(einsum("ii", {{"a", a}})), (std::vector<double>{5}));
  // "ji" implicitly outputs "ij": the transpose.
  EXPECT_EQ(doubles_of(einsum("ji", {{"a", a}})), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(doubles_of(einsum("ii->i", {{"a", a}})), (std::vector<double>{1, 4}));
}

TEST(MathIndexTest, EinsumEllipsisBroadcastsAndThreeOperands) {
  // a [2, 1, 1, 2] and b [3, 2, 2] broadcast their leading dims to [2, 3].
  Tensor a = f32({2, 1, 1, 2}, {1, 2, 3, 4});
  Tensor b = f32({3, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2, 0, 1, 1, 0});
  Tensor y = einsum("...ij,...jk->...ik", {{"a", a}, {"b", b}});
  EXPECT_EQ(y.shape(), (Dims{2, 3, 1, 2}));
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 2, 2, 4, 2, 1, 3, 4, 6, 8, 4, 3}));
  Tensor v = f32({2}, {1, 2});
  EXPECT_EQ(doubles_of(einsum("i,i,i->", {{"a", v}, {"b", v}, {"c", v}})),
            (std::vector<double>{9}));
}

TEST(MathIndexTest, EinsumMatrixProductsAgreeWithLoops) {
  // a [2, 3, 4] (b, i, j), c [2, 5, 4] (b, k, j): out[b, k, i] = sum_j a[b, i, j] c[b, k, j].
  std::vector<float> av(24), cv(40);
  for (size_t i = 0; i < av.size(); ++i) av[i] = static_cast<float>((i * 7) % 5) - 2;
  for (size_t i = 0; i < cv.size(); ++i) cv[i] = static_cast<float>((i * 3) % 7) - 3;
  std::vector<double> want(30, 0.0);
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 5; ++k)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
          want[(b * 5 + k) * 3 + i] += av[(b * 3 + i) * 4 + j] * cv[(b * 5 + k) * 4 + j];
  Tensor y = einsum("bij,bkj->bki", {{"a", f32({2, 3, 4}, av)}, {"c", f32({2, 5, 4}, cv)}});
  EXPECT_EQ(y.shape(), (Dims{2, 5, 3}));
  EXPECT_EQ(doubles_of(y), want);
  // A label of one operand alone that is summed ("i" below) takes the general loop.
  std::vector<double> want2(5, 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) want2[k] += av[i * 4 + j] * cv[k * 4 + j];
  Tensor y2 =
      einsum("ij,kj->k", {{"a", f32({3, 4}, std::vector<float>(av.begin(), av.begin() + 12))},
                          {"c", f32({5, 4}, std::vector<float>(cv.begin(), cv.begin() + 20))}});
  EXPECT_EQ(doubles_of(y2), want2);
}

TEST(MathIndexTest, EinsumErrors) {
  // Shapes that do not fit the equation are refused by the check (inference), before a run.
  Tensor a = f32({2, 2}, {1, 2, 3, 4});
  Tensor b = f32({3}, {1, 2, 3});
  expect_invalid_model([&] { einsum("ij,j->i", {{"a", a}, {"b", b}}); });
  expect_invalid_model([&] { einsum("ijk", {{"a", a}}); });
  expect_invalid_model([&] { einsum("ij->k", {{"a", a}}); });
  EXPECT_THROW(einsum("i$", {{"a", a}}), Error);
}

}  // namespace
}  // namespace bough
