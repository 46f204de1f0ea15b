// A run can be stopped: Session::cancel() from another thread, a time limit (both checked
// before every node and loop iteration) and a memory limit end it with ErrorKind::Stopped;
// the session runs normally afterwards.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "bough/error.h"
#include "bough/session.h"
#include "counting_loop.h"
#include "ir/memory_limit.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::floats_of;
using test::GraphBuilder;

using test::counting_loop;
using test::counting_loop_inputs;

// The session runs on after a stopped run: 3 iterations add 3 (nothing with the empty body).
void expect_runs_on(Session& session, bool empty_body) {
  EXPECT_EQ(floats_of(session.run(counting_loop_inputs(3))[0].second.tensor()),
            std::vector<float>{empty_body ? 0.0f : 3.0f});
}

// Runs the loop 2^50 times, which only a stop ends: the run fails with ErrorKind::Stopped
// and a message saying `why`.
void expect_huge_loop_stopped(Session& session, const std::string& why) {
  try {
    session.run(counting_loop_inputs(int64_t{1} << 50));
    ADD_FAILURE() << "the run was not stopped";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Stopped) << e.what();
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(SessionLimits, CancelFromAnotherThreadStopsAHugeLoop) {
  for (bool empty_body : {false, true}) {
    Session session(counting_loop(empty_body));
    std::atomic<bool> done{false};
    // cancel() stops only a run in progress: keep cancelling until the run has ended.
    std::thread canceller([&] {
      while (!done) {
        session.cancel();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
    expect_huge_loop_stopped(session, "cancelled");
    done = true;
    canceller.join();
    expect_runs_on(session, empty_body);
  }
}

TEST(SessionLimits, TimeLimitStopsAHugeLoop) {
  SessionOptions options;
  options.time_limit_seconds = 0.05;
  for (bool empty_body : {false, true}) {
    Session session(counting_loop(empty_body), options);
    expect_huge_loop_stopped(session, "passed its time limit");
    expect_runs_on(session, empty_body);
  }
}

// ConstantOfShape of a shape given at run time: [2^26] floats (256 MiB) would pass a
// 64 MiB limit; a small shape runs, and the bytes counted as held return to where they were.
TEST(SessionLimits, MemoryLimitStopsAnAllocationPastIt) {
  GraphBuilder g;
  g.input("shape", ElemType::Int64, {1}).output("y", ElemType::Float, {-1});
  g.node("ConstantOfShape", {"shape"}, {"y"}, "fill");
  SessionOptions options;
  options.memory_limit_bytes = size_t{64} << 20;
  Session session(Model::load(test::save_model(test::make_model(g),
                                               test::scratch_dir("memory_limit"), "m.onnx")),
                  options);
  const size_t held_before = ir::held_tensor_bytes();
  try {
    session.run({{"shape", test::i64({1}, {int64_t{1} << 26})}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Stopped) << e.what();
    EXPECT_NE(std::string(e.what()).find("ConstantOfShape \"fill\""), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("limit of 67108864 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ir::held_tensor_bytes(), held_before);
  auto out = session.run({{"shape", test::i64({1}, {3})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, 0, 0}));
}

}  // namespace
}  // namespace bough
