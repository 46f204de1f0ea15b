// Per-node thread choice: the pool obeys a thread's policy and says which regions would have
// split; a ThreadChoice probes, measures both ways, keeps the faster, and measures anew when
// the node's inputs change size. Times here are given, not measured, so that the rule is
// tested exactly; that a session's results are the same at any thread count is tested in
// session_threads_test.cc.
#include "exec/thread_choice.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "util/thread_pool.h"

namespace bough::exec {
namespace {

using util::kMinWorkPerThread;
using util::ThreadPool;

// Chunks a region of `n` items of kMinWorkPerThread each ran in, and how many elsewhere.
struct Split {
  int chunks = 0, elsewhere = 0;
};
Split run_region(ThreadPool& pool, int64_t n) {
  std::atomic<int> chunks{0}, elsewhere{0};
  const auto caller = std::this_thread::get_id();
  pool.parallel_for_work(n, kMinWorkPerThread, [&](int64_t, int64_t) {
    chunks.fetch_add(1);
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
  });
  return {chunks.load(), elsewhere.load()};
}

TEST(ThreadChoice, SerialPolicyRunsEveryRegionInlineAndNotesTheWish) {
  ThreadPool pool(2);
  const ThreadPool::NodePolicy before = ThreadPool::exchange_policy({});
  {
    const ChosenRun run({.serial = true});
    EXPECT_EQ(run_region(pool, 8).chunks, 1);
    EXPECT_EQ(pool.threads_for(kMinWorkPerThread * 8), 1);
    EXPECT_TRUE(run.wanted_split());
  }
  // Restored: the cost rule splits again, and no wish is left over.
  EXPECT_FALSE(ThreadPool::policy().serial);
  EXPECT_FALSE(ThreadPool::policy().wanted_split);
  EXPECT_EQ(run_region(pool, 8).chunks, 2);
  EXPECT_EQ(pool.threads_for(kMinWorkPerThread * 8), 2);
  ThreadPool::exchange_policy(before);
}

TEST(ThreadChoice, OnlyRegionsTheCostRuleWouldSplitAreNoted) {
  ThreadPool pool(2), alone(1);
  {
    const ChosenRun run({});
    run_region(pool, 1);  // below two minimums
    EXPECT_EQ(pool.threads_for(kMinWorkPerThread), 1);
    run_region(alone, 8);  // no workers
    EXPECT_EQ(alone.threads_for(kMinWorkPerThread * 8), 1);
    EXPECT_FALSE(run.wanted_split());
    pool.threads_for(kMinWorkPerThread * 2);
    EXPECT_TRUE(run.wanted_split());
  }
  {
    const ChosenRun run({});
    EXPECT_EQ(run_region(pool, 2).chunks, 2);
    EXPECT_TRUE(run.wanted_split());
  }
}

// A node that runs a nested plan: the inner node's policy and wishes are its own.
TEST(ThreadChoice, NestedRunsKeepTheirPoliciesApart) {
  ThreadPool pool(2);
  const ChosenRun outer({.serial = true});
  {
    const ChosenRun inner({});
    EXPECT_EQ(run_region(pool, 8).chunks, 2);
    EXPECT_TRUE(inner.wanted_split());
  }
  EXPECT_FALSE(outer.wanted_split());
  EXPECT_EQ(run_region(pool, 8).chunks, 1);
}

// Feeds a choice runs of the given times, serial ones `serial_ns` and split ones `split_ns`;
// the policies it asked for.
std::vector<bool> measure(ThreadChoice& choice, int64_t size, int64_t serial_ns, int64_t split_ns) {
  std::vector<bool> serial;
  for (int run = 0; run < 6; ++run) {
    bool timed = false;
    const auto policy = choice.policy_for(size, timed);
    EXPECT_TRUE(timed);
    serial.push_back(policy.serial);
    choice.record(policy.serial ? serial_ns : split_ns, true);
  }
  return serial;
}

void probe(ThreadChoice& choice, int64_t size, bool wanted_split) {
  bool timed = false;
  EXPECT_FALSE(choice.policy_for(size, timed).serial);  // as the cost rule says
  EXPECT_TRUE(timed);
  choice.record(1'000'000, wanted_split);  // the first run's time is not used
}

TEST(ThreadChoice, ANodeThatWouldNotSplitIsSettledAtOnce) {
  ThreadChoice choice;
  EXPECT_FALSE(choice.settled_free());
  probe(choice, 100, false);
  EXPECT_TRUE(choice.settled_free());
}

TEST(ThreadChoice, KeepsTheSplitWhenItIsFaster) {
  ThreadChoice choice;
  probe(choice, 100, true);
  EXPECT_EQ(measure(choice, 100, 1000, 600),
            (std::vector<bool>{true, false, true, false, true, false}));
  bool timed = true;
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
  EXPECT_FALSE(timed);
  EXPECT_FALSE(choice.settled_free());
}

TEST(ThreadChoice, RunsAloneWhenSplittingIsNotFivePercentFaster) {
  for (int64_t split_ns : {1200, 1000, 951}) {
    ThreadChoice choice;
    probe(choice, 100, true);
    measure(choice, 100, 1000, split_ns);
    bool timed = true;
    EXPECT_TRUE(choice.policy_for(100, timed).serial) << split_ns;
    EXPECT_FALSE(timed);
  }
  ThreadChoice choice;
  probe(choice, 100, true);
  measure(choice, 100, 1000, 949);
  bool timed = true;
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
}

// The fastest run of each way counts: one slow outlier does not decide.
TEST(ThreadChoice, ComparesTheFastestRunOfEachWay) {
  ThreadChoice choice;
  probe(choice, 100, true);
  const int64_t times[] = {1000, 5000, 9000, 600, 1000, 5000};  // serial, split, ...
  for (int64_t t : times) {
    bool timed = false;
    choice.policy_for(100, timed);
    choice.record(t, true);
  }
  bool timed = true;
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
}

TEST(ThreadChoice, MeasuresAnewWhenTheInputsChangeSizeTwofold) {
  ThreadChoice choice;
  probe(choice, 100, true);
  measure(choice, 100, 1000, 2000);  // serial
  bool timed = true;
  EXPECT_TRUE(choice.policy_for(200, timed).serial);  // within twice: the decision holds
  EXPECT_FALSE(timed);
  EXPECT_TRUE(choice.policy_for(50, timed).serial);
  EXPECT_FALSE(timed);
  // Larger: probed again under the cost rule, then measured.
  EXPECT_FALSE(choice.policy_for(201, timed).serial);
  EXPECT_TRUE(timed);
  choice.record(1, true);
  measure(choice, 201, 1000, 500);
  EXPECT_FALSE(choice.policy_for(201, timed).serial);
  EXPECT_FALSE(timed);
  // Smaller than half: again.
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
  EXPECT_TRUE(timed);
}

}  // namespace
}  // namespace bough::exec
