// Session::run_profiled on examples/if_loop.onnx: a Loop "steps" over n iterations whose
// body computes i % 2 == 0 (Mod, Equal) and an If "even_or_odd" that adds 1 (even i) or
// halves (odd i). Which nodes run how often, at which depth, follows from n by hand.
#include <gtest/gtest.h>

#include <map>

#include "bough/session.h"
#include "test_paths.h"

namespace bough::test {
namespace {

const std::string kLoop = "main/Loop \"steps\"";
const std::string kBody = kLoop + "/body";
const std::string kIf = kBody + "/If \"even_or_odd\"";

NamedValues example_inputs(int64_t n) {
  return {{"x", Tensor::from_vector(ElemType::Float, {3}, std::vector<float>{1, 2, 3})},
          {"n", Tensor::scalar_i64(n)}};
}

TEST(RunProfile, EveryNodeRunOnceAtItsDepth) {
  Session session(Model::load(source_dir() + "/examples/if_loop.onnx"));
  RunProfile profile;
  NamedValues profiled = session.run_profiled(example_inputs(5), profile);
  NamedValues plain = session.run(example_inputs(5));
  // The same results: [1,2,3] -> +1 -> /2 -> +1 -> /2 -> +1 = [2, 2.25, 2.5].
  const float* y = profiled[0].second.tensor().data<float>();
  EXPECT_EQ(std::vector<float>(y, y + 3), (std::vector<float>{2, 2.25f, 2.5f}));
  EXPECT_EQ(profiled[0].second.tensor().data<float>()[2],
            plain[0].second.tensor().data<float>()[2]);

  std::map<std::string, int> calls;
  std::map<std::string, int> depth;
  for (const NodeTiming& t : profile.nodes) {
    ++calls[t.op + " " + t.place];
    depth[t.op + " " + t.place] = t.depth;
  }
  const std::map<std::string, int> expected_calls = {
      {"Loop " + kLoop, 1},
      {"Mod " + kBody + "/Mod", 5},
      {"Equal " + kBody + "/Equal", 5},
      {"If " + kIf, 5},
      {"Add " + kIf + "/then_branch/Add", 3},  // i = 0, 2, 4
      {"Mul " + kIf + "/else_branch/Mul", 2},  // i = 1, 3
  };
  EXPECT_EQ(calls, expected_calls);
  EXPECT_EQ(depth["Loop " + kLoop], 0);
  EXPECT_EQ(depth["Mod " + kBody + "/Mod"], 1);
  EXPECT_EQ(depth["If " + kIf], 1);
  EXPECT_EQ(depth["Add " + kIf + "/then_branch/Add"], 2);

  // A node's time holds its subgraphs' nodes: the Loop's whole time is its own time plus the
  // whole times of the body's nodes; each If likewise with its branch's node.
  int64_t body_total = 0, self_total = 0;
  for (const NodeTiming& t : profile.nodes) {
    EXPECT_GE(t.self_ns, 0) << t.place;
    EXPECT_LE(t.self_ns, t.duration_ns) << t.place;
    EXPECT_GE(t.start_ns, 0) << t.place;
    EXPECT_LE(t.start_ns + t.duration_ns, profile.run_ns) << t.place;
    if (t.depth == 1) body_total += t.duration_ns;
    self_total += t.self_ns;
  }
  const NodeTiming& loop = profile.nodes.back();  // nodes are listed as they finish
  ASSERT_EQ(loop.op, "Loop");
  EXPECT_EQ(loop.duration_ns, loop.self_ns + body_total);
  EXPECT_EQ(self_total, loop.duration_ns);  // the Loop is the main graph's only node
  EXPECT_LE(loop.duration_ns, profile.run_ns);

  // A second profile replaces the first; a branch not taken has no rows.
  session.run_profiled(example_inputs(1), profile);
  calls.clear();
  for (const NodeTiming& t : profile.nodes) ++calls[t.op];
  EXPECT_EQ(calls, (std::map<std::string, int>{
                       {"Loop", 1}, {"Mod", 1}, {"Equal", 1}, {"If", 1}, {"Add", 1}}));
}

}  // namespace
}  // namespace bough::test
