// The operators that run along one axis: AxisSplit and map_outer_blocks (ops/onnx/axis_split.h),
// the kernel Softmax, LogSoftmax and Hardmax share (softmax_like.h) and the one of CumSum and
// CumProd (cumulative.h), against values worked out by hand in the comments.
#include "ops/onnx/axis_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "bough/error.h"
#include "kernels/convert.h"
#include "model_builder.h"
#include "util/thread_pool.h"

namespace bough::ops {
namespace {

using test::doubles_of;
using test::f32;
using test::i64;

void expect_split(const AxisSplit& s, int64_t outer, int64_t n, int64_t inner) {
  EXPECT_EQ(s.outer, outer);
  EXPECT_EQ(s.n, n);
  EXPECT_EQ(s.inner, inner);
}

TEST(AxisSplit, SplitsTheShapeAroundTheAxis) {
  const Dims shape{2, 3, 4, 5};
  expect_split(split_at_axis(shape, 2, false), 2 * 3, 4, 5);
  expect_split(split_at_axis(shape, -1, false), 2 * 3 * 4, 5, 1);
  expect_split(split_at_axis(shape, 0, false), 1, 2, 3 * 4 * 5);
  // Coerced to 2-D at axis 1: n takes every dimension from the axis on.
  expect_split(split_at_axis(shape, 1, true), 2, 3 * 4 * 5, 1);
  expect_split(split_at_axis(Dims{}, 0, false), 1, 1, 1);
  EXPECT_THROW(split_at_axis(shape, 4, false), Error);
}

// A grain of blocks holds a thread's minimum work (util::kMinWorkPerThread) at
// `element_work` per element.
TEST(AxisSplit, OuterGrainHoldsAThreadsWorth) {
  static_assert(util::kMinWorkPerThread == 1 << 17, "the grains below assume 2^17");
  // Blocks of 100 * 10 elements at 16 each: 16000 per block, 2^17 / 16000 = 8.2 -> 9.
  EXPECT_EQ(outer_grain(AxisSplit{10, 100, 10}, 16), 9);
  EXPECT_EQ(outer_grain(AxisSplit{10, 100, 10}), 9);           // 16 is the default
  EXPECT_EQ(outer_grain(AxisSplit{10, 100, 10}, 1 << 17), 1);  // never below one block
  EXPECT_EQ(outer_grain(AxisSplit{10, 0, 10}, 16), 1 << 17);   // empty blocks cost 1 each
}

TEST(AxisSplit, MapOuterBlocksComputesEveryBlockOnce) {
  // x of shape [5, 4, 16384] (outer 5, n 4, inner 16384: one block is enough work for a task
  // of its own) holds its flat indices; y[o, r, i] is the maximum of x[o, :, i], which is the
  // column's last entry x[o, 3, i] = 65536 o + 3 * 16384 + i.
  const int64_t outer = 5, n = 4, inner = 16384;
  const AxisSplit s = split_at_axis(Dims{outer, n, inner}, 1, false);
  std::vector<float> values(static_cast<size_t>(outer * n * inner));
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k);
  const Tensor x = f32({outer, n, inner}, values);
  for (int threads : {1, 4}) {
    util::ThreadPool pool(threads);
    std::vector<std::atomic<int>> calls(static_cast<size_t>(outer));
    const Tensor y = map_outer_blocks<float>(
        x, s, pool, [&](const float* px, float* py, int64_t o0, int64_t o1) {
          for (int64_t o = o0; o < o1; ++o) {
            ++calls[static_cast<size_t>(o)];
            for (int64_t i = 0; i < inner; ++i) {
              float best = px[o * n * inner + i];
              for (int64_t r = 1; r < n; ++r) best = std::max(best, px[(o * n + r) * inner + i]);
              for (int64_t r = 0; r < n; ++r) py[(o * n + r) * inner + i] = best;
            }
          }
        });
    ASSERT_EQ(y.shape(), x.shape());
    for (int64_t o = 0; o < outer; ++o) {
      EXPECT_EQ(calls[static_cast<size_t>(o)], 1) << "threads " << threads << ", block " << o;
      for (int64_t r = 0; r < n; ++r)
        for (int64_t i = 0; i < inner; i += 4095)
          EXPECT_EQ(y.data<float>()[(o * n + r) * inner + i], 65536 * o + 3 * 16384 + i)
              << "threads " << threads << " at " << o << ", " << r << ", " << i;
    }
  }
}

TEST(AxisSplit, ForEachColumnWalksTheColumnsOfTheBlocks) {
  // [outer 3, n 2, inner 4]: column (o, i) starts at element o * 8 + i; blocks 1 and 2 only.
  const AxisSplit s{3, 2, 4};
  std::vector<float> x(24), y(24);
  std::vector<int64_t> xs_at, ys_at;
  for_each_column(x.data(), y.data(), 1, 3, s, [&](const float* xs, float* ys) {
    xs_at.push_back(xs - x.data());
    ys_at.push_back(ys - y.data());
  });
  const std::vector<int64_t> want{8, 9, 10, 11, 16, 17, 18, 19};
  EXPECT_EQ(xs_at, want);
  EXPECT_EQ(ys_at, want);
}

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins,
                           const test::Attrs& attrs, int64_t opset) {
  return test::run_node(op, ins, 1, attrs, opset, "axissplit");
}

test::Attrs axis(int64_t a) {
  return [a](onnxpb::NodeProto& n) { test::set_int(n, "axis", a); };
}

TEST(SoftmaxLike, HardmaxAlongTheAxisOrOverTheTrailingPart) {
  // x [2, 3, 2]: batch 0 holds 0..5, batch 1 holds 5..0.
  const Tensor x = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0});
  // Opset 13, default axis -1: the larger of each pair.
  EXPECT_EQ(doubles_of(run_op("Hardmax", {{"x", x}}, {}, 13)[0]),
            (std::vector<double>{0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0}));
  // Opset 13, axis 1: the largest of each column of three.
  EXPECT_EQ(doubles_of(run_op("Hardmax", {{"x", x}}, axis(1), 13)[0]),
            (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0}));
  // Opset 11, default axis 1: one 1 over each batch's six trailing elements.
  EXPECT_EQ(doubles_of(run_op("Hardmax", {{"x", x}}, {}, 11)[0]),
            (std::vector<double>{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0}));
}

TEST(SoftmaxLike, Float16GoesThroughFloat) {
  // Softmax of (0, ln 3) is (1/4, 3/4), exact in float16 (0x3400, 0x3A00) once rounded.
  const Tensor x = kernels::cast(f32({1, 2}, {0.0f, std::log(3.0f)}), ElemType::Float16);
  const Tensor y = run_op("Softmax", {{"x", x}}, {}, 13)[0];
  ASSERT_EQ(y.type(), ElemType::Float16);
  EXPECT_EQ(y.data<uint16_t>()[0], 0x3400);
  EXPECT_EQ(y.data<uint16_t>()[1], 0x3A00);
}

TEST(Cumulative, RunningTotalsAlongAMiddleAxis) {
  // x [2, 3, 2] = 1..12, along axis 1 (three rows of pairs per batch).
  const Tensor x = f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const Tensor a = i64({}, {1});
  auto attrs = [](int exclusive, int reverse) {
    return [=](onnxpb::NodeProto& n) {
      test::set_int(n, "exclusive", exclusive);
      test::set_int(n, "reverse", reverse);
    };
  };
  // Sums of columns (1, 3, 5), (2, 4, 6), (7, 9, 11), (8, 10, 12).
  EXPECT_EQ(doubles_of(run_op("CumSum", {{"x", x}, {"a", a}}, attrs(0, 0), 14)[0]),
            (std::vector<double>{1, 2, 4, 6, 9, 12, 7, 8, 16, 18, 27, 30}));
  EXPECT_EQ(doubles_of(run_op("CumSum", {{"x", x}, {"a", a}}, attrs(1, 1), 14)[0]),
            (std::vector<double>{8, 10, 5, 6, 0, 0, 20, 22, 11, 12, 0, 0}));
  // Products: exclusive starts at 1.
  EXPECT_EQ(doubles_of(run_op("CumProd", {{"x", x}, {"a", a}}, attrs(1, 0), 26)[0]),
            (std::vector<double>{1, 1, 1, 2, 3, 8, 1, 1, 7, 8, 63, 80}));
  EXPECT_EQ(doubles_of(run_op("CumProd", {{"x", x}, {"a", a}}, attrs(0, 1), 26)[0]),
            (std::vector<double>{15, 48, 15, 24, 5, 6, 693, 960, 99, 120, 11, 12}));
}

}  // namespace
}  // namespace bough::ops
