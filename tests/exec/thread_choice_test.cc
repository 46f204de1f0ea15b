// Per-node thread choice: the pool obeys a thread's policy and says which regions would have
// split; a ThreadChoice probes, measures both ways, keeps the faster, and measures anew when
// the node's inputs change size. Times here are given, not measured, so that the rule is
// tested exactly; that a session's results are the same at any thread count is tested in
// session_threads_test.cc.
#include "exec/thread_choice.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

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
  for (int run = 0; run < 9; ++run) {
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
  ThreadChoice choice(false);
  EXPECT_FALSE(choice.settled_free());
  probe(choice, 100, false);
  EXPECT_TRUE(choice.settled_free());
}

// All split first; then even nodes alone while odd ones split, then the other way round.
TEST(ThreadChoice, NeighboursRunAloneInTurnAndTheSplitIsKeptWhenFaster) {
  for (bool odd : {false, true}) {
    ThreadChoice choice(odd);
    probe(choice, 100, true);
    const std::vector<bool> even_alone{false, false, false, true, true, true, false, false, false};
    const std::vector<bool> odd_alone{false, false, false, false, false, false, true, true, true};
    EXPECT_EQ(measure(choice, 100, 1000, 600), odd ? odd_alone : even_alone);
    bool timed = true;
    EXPECT_FALSE(choice.policy_for(100, timed).serial);
    EXPECT_FALSE(timed);
    EXPECT_FALSE(choice.settled_free());
  }
}

TEST(ThreadChoice, RunsAloneWhenSplittingIsNotFivePercentFaster) {
  for (int64_t split_ns : {1200, 1000, 951}) {
    ThreadChoice choice(false);
    probe(choice, 100, true);
    measure(choice, 100, 1000, split_ns);
    bool timed = true;
    EXPECT_TRUE(choice.policy_for(100, timed).serial) << split_ns;
    EXPECT_FALSE(timed);
  }
  ThreadChoice choice(true);
  probe(choice, 100, true);
  measure(choice, 100, 1000, 949);
  bool timed = true;
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
}

// The median run of each way counts: neither one slow run nor one lucky one decides. An even
// node's runs: three split, three alone, three split beside its neighbours' alone ones (whose
// times do not count: 1 ns here).
void expect_choice(const std::vector<int64_t>& split_then_serial_ns, bool serial) {
  ThreadChoice choice(false);
  probe(choice, 100, true);
  std::vector<int64_t> runs = split_then_serial_ns;
  runs.insert(runs.end(), {1, 1, 1});
  for (int64_t t : runs) {
    bool timed = false;
    choice.policy_for(100, timed);
    choice.record(t, true);
  }
  bool timed = true;
  EXPECT_EQ(choice.policy_for(100, timed).serial, serial);
  EXPECT_FALSE(timed);
}

TEST(ThreadChoice, ComparesTheMedianRunOfEachWay) {
  expect_choice({600, 9000, 700, 1000, 5000, 1000}, false);  // 700 against 1000
  expect_choice({500, 2000, 2000, 1000, 1000, 1000}, true);  // 2000 against 1000
  expect_choice({900, 900, 900, 100, 1000, 5000}, false);    // 900 against 1000
  expect_choice({900, 900, 900, 100, 940, 5000}, true);      // 900 against 940: under 5 %
}

TEST(ThreadChoice, MeasuresAnewWhenTheInputsChangeSizeTwofold) {
  ThreadChoice choice(false);
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

// A session's runs: ten while its nodes choose (by their choices), five timed by their
// choices, five timed all alone; then alone unless the choices win by 3 %. Returns whether
// each of those 20 runs went alone.
std::vector<bool> choose_runs(RunChoice& choice, int64_t size, int64_t chosen_ns,
                              int64_t alone_ns) {
  std::vector<bool> alone;
  for (int run = 0; run < 20; ++run) {
    bool timed = false;
    alone.push_back(choice.alone_for(size, timed));
    EXPECT_TRUE(timed);
    choice.record(alone.back() ? alone_ns : chosen_ns, true);
  }
  return alone;
}

TEST(RunChoice, ComparesWholeRunsOnceTheNodesHaveChosen) {
  std::vector<bool> expected(20, false);
  for (int run = 15; run < 20; ++run) expected[static_cast<size_t>(run)] = true;
  for (auto [chosen_ns, alone_ns, alone] : {std::tuple{900, 1000, false},
                                            {969, 1000, false},
                                            {970, 1000, true},
                                            {1000, 1000, true},
                                            {1200, 1000, true}}) {
    RunChoice choice;
    EXPECT_EQ(choose_runs(choice, 10, chosen_ns, alone_ns), expected);
    for (int run = 0; run < 3; ++run) {
      bool timed = true;
      EXPECT_EQ(choice.alone_for(10, timed), alone) << chosen_ns;
      EXPECT_FALSE(timed);
    }
  }
}

// The median of each way's five runs counts.
TEST(RunChoice, ComparesMedians) {
  RunChoice choice;
  const int64_t times[] = {0,   0,    0,    0,    0,   0, 0, 0, 0, 0,  // choosing
                           500, 9000, 900,  9000, 900,                 // by the choices: median 900
                           100, 1000, 1000, 1000, 5000};               // alone: median 1000
  for (int64_t t : times) {
    bool timed = false;
    choice.alone_for(10, timed);
    choice.record(t, true);
  }
  bool timed = true;
  EXPECT_FALSE(choice.alone_for(10, timed));
}

// Runs none of whose nodes wanted to split, and runs of a second or more, keep the choices
// without running alone.
TEST(RunChoice, RunsThatDoNotSplitOrTakeLongKeepTheChoices) {
  for (auto [ns, wanted_split] : {std::pair{1000, false}, {1'000'000'000, true}}) {
    RunChoice choice;
    for (int run = 0; run < 15; ++run) {
      bool timed = false;
      EXPECT_FALSE(choice.alone_for(10, timed));
      EXPECT_TRUE(timed);
      choice.record(ns, wanted_split);
    }
    bool timed = true;
    EXPECT_FALSE(choice.alone_for(10, timed)) << ns;
    EXPECT_FALSE(timed);
  }
}

// A run of a few milliseconds (the CNN classifier's 3.5 ms) is measured alone too: its
// choices lose to running alone here, so it runs alone.
TEST(RunChoice, RunsOfMillisecondsAreMeasuredAlone) {
  RunChoice choice;
  choose_runs(choice, 10, 3'800'000, 3'500'000);
  bool timed = true;
  EXPECT_TRUE(choice.alone_for(10, timed));
  EXPECT_FALSE(timed);
}

// Runs `count` more runs of a session whose runs take `chosen_ns` by the nodes' choices and
// `alone_ns` alone; returns how many were timed and whether the last went alone.
std::pair<int, bool> run_on(RunChoice& choice, int count, int64_t chosen_ns, int64_t alone_ns) {
  int timed_runs = 0;
  bool alone = false;
  for (int run = 0; run < count; ++run) {
    bool timed = false;
    alone = choice.alone_for(10, timed);
    if (timed) {
      ++timed_runs;
      choice.record(alone ? alone_ns : chosen_ns, true);
    }
  }
  return {timed_runs, alone};
}

// The first five runs a side said the choices win (the machine stalled on the runs alone);
// every check after says they lose by 20 %. Once the checks' runs outnumber the first ones,
// the medians of all of them send the runs alone.
TEST(RunChoice, LaterChecksUndoAFirstDecisionTheNoiseMade) {
  RunChoice choice;
  choose_runs(choice, 10, 900, 1000);
  bool timed = true;
  EXPECT_FALSE(choice.alone_for(10, timed));  // by the choices, until the next check
  EXPECT_FALSE(timed);
  // The check after 40 runs: five runs by the choices, five alone.
  auto [timed_runs, alone] = run_on(choice, 39 + 10, 1200, 1000);
  EXPECT_EQ(timed_runs, 10);
  EXPECT_TRUE(alone);                        // the check's last run is one of its five alone
  EXPECT_TRUE(choice.alone_for(10, timed));  // medians of ten a side: 1200 against 1000
  EXPECT_FALSE(timed);
}

// Six decisions at the most: after the last check (640 runs after the one before it) nothing
// is timed any more. 10 settling runs and six checks of ten: 70 timed runs.
TEST(RunChoice, ChecksEndAfterSixDecisions) {
  RunChoice choice;
  EXPECT_EQ(run_on(choice, 5000, 1000, 900).first, 70);
  EXPECT_EQ(run_on(choice, 5000, 1000, 900), std::make_pair(0, true));
}

TEST(RunChoice, MeasuresAnewWhenTheInputsChangeSizeTwofold) {
  RunChoice choice;
  choose_runs(choice, 10, 2000, 1000);
  bool timed = true;
  EXPECT_TRUE(choice.alone_for(20, timed));
  EXPECT_FALSE(timed);
  EXPECT_FALSE(choice.alone_for(21, timed));  // by the nodes' choices again, counted
  EXPECT_TRUE(timed);
}

// A node's wish to split, under a ChosenRun, reaches the run's choice once.
TEST(RunChoice, NodesWishesAreTakenOnce) {
  util::ThreadPool pool(2);
  take_wanted_split();
  {
    const ChosenRun node({.serial = true});
    pool.threads_for(util::kMinWorkPerThread * 8);
  }
  EXPECT_TRUE(take_wanted_split());
  EXPECT_FALSE(take_wanted_split());
  { const ChosenRun node({}); }
  EXPECT_FALSE(take_wanted_split());
}

}  // namespace
}  // namespace bough::exec
