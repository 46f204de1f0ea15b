// legacy-broadcast: opset 6 Add/Mul with broadcast=1 and axis become numpy-style broadcasts
// behind an explicit Unsqueeze; the values come from a reference loop over the old rule
// (B's dims start at `axis` in A's).
#include <gtest/gtest.h>

#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// a[2,3,4] + b1[3] at axis 1, times b0[2,3] at axis 0, minus b2[4] at axis 2, at opset 6.
GraphBuilder axis_model() {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2, 3, 4})
      .input("b1", ElemType::Float, {3})
      .input("b0", ElemType::Float, {2, 3})
      .input("b2", ElemType::Float, {4});
  auto& add = g.node("Add", {"a", "b1"}, {"s"});
  test::set_int(add, "broadcast", 1);
  test::set_int(add, "axis", 1);
  auto& mul = g.node("Mul", {"s", "b0"}, {"m"});
  test::set_int(mul, "broadcast", 1);
  test::set_int(mul, "axis", 0);
  auto& sub = g.node("Sub", {"m", "b2"}, {"y"});
  test::set_int(sub, "broadcast", 1);
  test::set_int(sub, "axis", 2);
  g.output("y", ElemType::Float, {2, 3, 4});
  return g;
}

TEST(LegacyBroadcast, AxisBecomesAnUnsqueeze) {
  GraphBuilder g = axis_model();
  const std::string in =
      test::save_model(test::make_model(g, 6, 3), test::scratch_dir("legacy_broadcast"), "m.onnx");
  const std::string opt = test::optimize_file(in, {"legacy-broadcast"});
  EXPECT_EQ(test::count_ops(opt, "Unsqueeze"), 2);  // axis 2 of a [4] already aligns
  std::string info;
  ASSERT_EQ(test::run_cli("info " + opt, &info), 0);
  EXPECT_EQ(info.find("axis ="), std::string::npos) << info;

  std::vector<float> a(24), b1 = {1, 2, 3}, b0 = {1, 2, 3, 4, 5, 6}, b2 = {10, 20, 30, 40};
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<float>(k);
  std::vector<float> want(24);
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 3; ++j)
      for (size_t k = 0; k < 4; ++k) {
        size_t at = (i * 3 + j) * 4 + k;
        want[at] = (a[at] + b1[j]) * b0[i * 3 + j] - b2[k];
      }
  auto out = test::run_plain(opt, {{"a", f32({2, 3, 4}, a)},
                                   {"b1", f32({3}, b1)},
                                   {"b0", f32({2, 3}, b0)},
                                   {"b2", f32({4}, b2)}});
  EXPECT_EQ(floats_of(out[0]), want);
}

// Golden: Unsqueeze(b1, axes [1]) and Unsqueeze(b0, axes [2]) feed the Add and Mul; every
// axis attribute goes, broadcast = 1 stays. Three nodes rewritten.
TEST(LegacyBroadcast, Golden) {
  test::check_golden(axis_model(), "legacy-broadcast", test::report_line("legacy-broadcast", 3), "",
                     6);
}

}  // namespace
}  // namespace bough
