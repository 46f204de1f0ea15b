// single-trip-loop: a Loop with the constant trip count 1 becomes its body.
#include <gtest/gtest.h>

#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// v = Loop(trips, cond, x) { v_next = v + x; scan s = v_next + float(i) }: one trip from
// v = x gives v = 2x and scans = [2x + 0] with a leading axis of 1.
GraphBuilder loop_model(int64_t trips, const std::string& cond_value) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2});
  body.node("Add", {"v_in", "x"}, {"v_next"});
  test::set_int(body.node("Cast", {"i"}, {"i_f"}), "to", 1);
  body.node("Add", {"v_next", "i_f"}, {"s"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool)
      .output("v_next", ElemType::Float, {2})
      .output("s", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("trips", test::i64({}, {trips}));
  std::string cond;
  if (!cond_value.empty()) {
    cond = "c";
    g.initializer("c", test::boolean({}, {cond_value == "true"}));
  }
  test::set_graph(g.node("Loop", {"trips", cond, "x"}, {"v", "scans"}), "body", body);
  g.output("v", ElemType::Float, {2}).output("scans", ElemType::Float, {trips, 2});
  return g;
}

std::string optimized(const GraphBuilder& g, const std::string& name, int64_t opset) {
  return test::optimize_file(
      test::save_model(test::make_model(g, opset), test::scratch_dir("single_trip_" + name),
                       name + ".onnx"),
      {"single-trip-loop"});
}

TEST(SingleTripLoop, BecomesItsBodyAtOpsetsWithAxesAsAttributeAndAsInput) {
  for (int64_t opset : {11, 17}) {
    SCOPED_TRACE(opset);
    for (const std::string cond : {"", "true"}) {
      std::string opt = optimized(loop_model(1, cond), "once" + cond, opset);
      EXPECT_EQ(test::count_ops(opt, "Loop"), 0);
      auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
      EXPECT_EQ(floats_of(out[0]), (std::vector<float>{2, 4}));
      EXPECT_EQ(out[1].shape(), (Dims{1, 2}));
      EXPECT_EQ(floats_of(out[1]), (std::vector<float>{2, 4}));
    }
  }
}

// The body lands in main: v_in reads x, i the new initializer 0, cond_in the Loop's c; the
// scan slice gets an Unsqueeze (axes an input at opset 17).
TEST(SingleTripLoop, Golden) {
  std::string out = test::check_golden(loop_model(1, "true"), "single-trip-loop",
                                       test::report_line("single-trip-loop", 1));
  auto y = test::run_plain(out, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{2, 4}));
}

TEST(SingleTripLoop, OtherLoopsStay) {
  EXPECT_EQ(test::count_ops(optimized(loop_model(2, ""), "twice", 17), "Loop"), 1);
  EXPECT_EQ(test::count_ops(optimized(loop_model(1, "false"), "never", 17), "Loop"), 1);
}

}  // namespace
}  // namespace bough
