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

// The node's first run, and when it wanted to split, the four runs of its warm-up: all as the
// cost rule says, and their times (`ns`) not used.
void probe(ThreadChoice& choice, int64_t size, bool wanted_split, int64_t ns = 1'000'000) {
  for (int run = 0; run < (wanted_split ? 5 : 1); ++run) {
    bool timed = false;
    EXPECT_FALSE(choice.policy_for(size, timed).serial);
    EXPECT_TRUE(timed);
    choice.record(ns, wanted_split);
  }
}

TEST(ThreadChoice, ANodeThatWouldNotSplitIsSettledAtOnce) {
  ThreadChoice choice(false);
  EXPECT_FALSE(choice.settled_free());
  probe(choice, 100, false);
  EXPECT_TRUE(choice.settled_free());
}

// The first runs of a session are slow (first touches, buffers growing), and not alike: the
// warm-up's times, whatever they are, do not sway the choice. A node whose warm-up took 9 ms
// a run alone and 1 ns split still runs alone when its measured split runs are slower.
TEST(ThreadChoice, TheWarmUpRunsAreNotCompared) {
  for (int64_t warm_ns : {1, 9'000'000}) {
    ThreadChoice choice(false);
    probe(choice, 100, true, warm_ns);
    EXPECT_EQ(measure(choice, 100, 1000, 2000).size(), 9U);  // then three blocks of three
    bool timed = true;
    EXPECT_TRUE(choice.policy_for(100, timed).serial) << warm_ns;
    EXPECT_FALSE(timed);
  }
  static_assert(ThreadChoice::kChoosingRuns == 1 + 4 + 9);
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
  // Larger: probed again under the cost rule, warmed up, then measured.
  probe(choice, 201, true);
  measure(choice, 201, 1000, 500);
  EXPECT_FALSE(choice.policy_for(201, timed).serial);
  EXPECT_FALSE(timed);
  // Smaller than half: again.
  EXPECT_FALSE(choice.policy_for(100, timed).serial);
  EXPECT_TRUE(timed);
}

// A time for runs of a way that is never the fastest.
constexpr int64_t kSlow = 50'000'000;

// Times runs of a session while it measures: each way's runs take the next of its times
// (the last one repeated once they run out). Returns the way of each timed run, up to the
// first run that is not timed, and leaves that run's way in `then`.
struct Ways {
  std::vector<int64_t> chosen_ns, alone_ns, split_ns = {kSlow};
};
std::vector<RunWay> measure_runs(RunChoice& choice, const Ways& ways, RunWay& then,
                                 int64_t size = 10) {
  std::vector<RunWay> seen;
  size_t taken[3] = {0, 0, 0};
  while (true) {
    bool timed = false;
    const RunWay way = choice.way_for(size, timed);
    if (!timed) {
      then = way;
      return seen;
    }
    seen.push_back(way);
    const std::vector<int64_t>& times = way == RunWay::Alone   ? ways.alone_ns
                                        : way == RunWay::Split ? ways.split_ns
                                                               : ways.chosen_ns;
    const size_t i = std::min(taken[static_cast<size_t>(way)]++, times.size() - 1);
    choice.record(times[i], true);
    if (seen.size() > 1000) {
      ADD_FAILURE() << "no decision after 1000 runs";
      return seen;
    }
  }
}
RunWay decision(const Ways& ways) {
  RunChoice choice;
  RunWay way = RunWay::ByChoices;
  measure_runs(choice, ways, way);
  return way;
}

// The runs a session's nodes take to choose, before the run's check times anything.
constexpr int kChoosing = ThreadChoice::kChoosingRuns;
constexpr RunWay kChoices = RunWay::ByChoices, kAlone = RunWay::Alone, kSplit = RunWay::Split;

// `n` runs of each of the given ways in turn.
std::vector<RunWay> sequence(std::initializer_list<std::pair<RunWay, int>> runs) {
  std::vector<RunWay> out;
  for (auto [way, n] : runs) out.insert(out.end(), static_cast<size_t>(n), way);
  return out;
}

// Fourteen runs while the nodes choose; then by the choices, runs of 0.7 ms: three to warm
// up (the third passes 2 ms) and five compared; then alone, runs of 0.8 ms, and all split,
// of 0.75 ms: three and five each. The choices win, and the runs after go by them, untimed.
TEST(RunChoice, ComparesWholeRunsOnceTheNodesHaveChosenAndWarmedUp) {
  RunChoice choice;
  RunWay then = kAlone;
  EXPECT_EQ(measure_runs(choice, {{700'000}, {800'000}, {750'000}}, then),
            sequence({{kChoices, kChoosing + 3 + 5}, {kAlone, 3 + 5}, {kSplit, 3 + 5}}));
  EXPECT_EQ(then, kChoices);
  for (int run = 0; run < 3; ++run) {
    bool timed = true;
    EXPECT_EQ(choice.way_for(10, timed), kChoices);
    EXPECT_FALSE(timed);
  }
}

// Every node split as the cost rule says is kept when it beats the choices (on a tie, the
// choices) and alone by 3 %.
TEST(RunChoice, AllSplitIsKeptWhenFastest) {
  EXPECT_EQ(decision({{1000}, {1000}, {800}}), kSplit);
  EXPECT_EQ(decision({{800}, {1000}, {800}}), kChoices);
  EXPECT_EQ(decision({{800}, {1000}, {799}}), kSplit);
  EXPECT_EQ(decision({{1000}, {1000}, {969}}), kSplit);
  EXPECT_EQ(decision({{1000}, {1000}, {970}}), kAlone);
}

// The choices win only by 3 %: 970 against 1000 is not enough, 969 is.
TEST(RunChoice, TheChoicesMustWinByThreePercent) {
  EXPECT_EQ(decision({{900}, {1000}}), kChoices);
  EXPECT_EQ(decision({{969}, {1000}}), kChoices);
  EXPECT_EQ(decision({{970}, {1000}}), kAlone);
  EXPECT_EQ(decision({{1000}, {1000}}), kAlone);
  EXPECT_EQ(decision({{1200}, {1000}}), kAlone);
}

// A way's runs just after a switch pay for moving its working set between the cores' caches;
// they are not compared. Here the first four runs alone take 0.5 ms (the fourth reaches the
// 2 ms of warm-up) and the later ones 0.3: the 0.4 ms runs by the choices lose. Compared,
// the four slow runs would have made the lower quartile 0.5 ms.
TEST(RunChoice, TheRunsJustAfterASwitchAreNotCompared) {
  const std::vector<int64_t> slow(4, 500'000);
  std::vector<int64_t> alone = slow;
  alone.push_back(300'000);
  EXPECT_EQ(decision({{400'000}, alone}), kAlone);
  // Four more slow runs are compared: the lower quartile of five is the second fastest.
  alone.insert(alone.begin(), slow.begin(), slow.end());
  EXPECT_EQ(decision({{400'000}, alone}), kChoices);
}

// Warm-up lasts at least one run however long, and at most 32 however short.
TEST(RunChoice, WarmUpTakesOneRunToThirtyTwo) {
  RunChoice slow;
  RunWay then = kChoices;
  EXPECT_EQ(measure_runs(slow, {{50'000'000}, {40'000'000}, {60'000'000}}, then),
            sequence({{kChoices, kChoosing + 1 + 5}, {kAlone, 1 + 5}, {kSplit, 1 + 5}}));
  EXPECT_EQ(then, kAlone);
  RunChoice fast;
  EXPECT_EQ(measure_runs(fast, {{1000}, {900}, {1100}}, then),
            sequence({{kChoices, kChoosing + 32 + 5}, {kAlone, 32 + 5}, {kSplit, 32 + 5}}));
  EXPECT_EQ(then, kAlone);
}

// Each way counts by the second fastest of its five compared runs: two slow runs of the five
// do not decide, and neither does one fast one.
TEST(RunChoice, ComparesLowerQuartiles) {
  const int64_t ms = 1'000'000;  // each way's warm-up: two runs of 1 ms
  // By the choices: 0.9 ms; alone: 1 ms (two runs of 9 ms do not count).
  EXPECT_EQ(decision({{ms, ms, 500'000, 9 * ms, 900'000, 9 * ms, 900'000},
                      {ms, ms, ms, ms, 100'000, 5 * ms, ms}}),
            kChoices);
  // By the choices: 0.9 ms; alone: 0.5 (the other three runs alone are slower).
  EXPECT_EQ(decision({{ms, ms, 900'000, 900'000, 900'000, 900'000, 900'000},
                      {ms, ms, 400'000, 500'000, 2 * ms, 3 * ms, 4 * ms}}),
            kAlone);
}

// Runs none of whose nodes wanted to split, and runs of a second or more, keep the choices
// without running the other ways.
TEST(RunChoice, RunsThatDoNotSplitOrTakeLongKeepTheChoices) {
  for (auto [ns, wanted_split] : {std::pair{1'000'000, false}, {1'000'000'000, true}}) {
    RunChoice choice;
    int runs = 0;
    while (true) {
      bool timed = false;
      EXPECT_EQ(choice.way_for(10, timed), kChoices);
      if (!timed) break;
      choice.record(ns, wanted_split);
      ASSERT_LT(++runs, 100);
    }
    EXPECT_EQ(runs, kChoosing + (wanted_split ? 1 : 2) + 5) << ns;
  }
}

// A run of a few milliseconds (the CNN classifier's 3.5 ms) is measured alone too: its
// choices lose to running alone here, so it runs alone.
TEST(RunChoice, RunsOfMillisecondsAreMeasuredAlone) {
  EXPECT_EQ(decision({{3'800'000}, {3'500'000}}), kAlone);
}

// Runs `count` more runs of a session whose runs take `ways`' first times; returns how many
// were timed and the last one's way.
std::pair<int, RunWay> run_on(RunChoice& choice, int count, const Ways& ways) {
  int timed_runs = 0;
  RunWay way = kChoices;
  for (int run = 0; run < count; ++run) {
    bool timed = false;
    way = choice.way_for(10, timed);
    if (timed) {
      ++timed_runs;
      choice.record(way == kAlone   ? ways.alone_ns[0]
                    : way == kSplit ? ways.split_ns[0]
                                    : ways.chosen_ns[0],
                    true);
    }
  }
  return {timed_runs, way};
}

// The first five runs a way said the choices win (the machine stalled on the runs alone);
// every check after says they lose by 20 %. Once the checks' runs outnumber the first ones
// three to one, the lower quartile of all of them sends the runs alone. Runs of 1 ms or
// more: each way's warm-up is two.
TEST(RunChoice, LaterChecksUndoAFirstDecisionTheNoiseMade) {
  RunChoice choice;
  RunWay then = kAlone;
  measure_runs(choice, {{900'000}, {1'000'000}, {1'500'000}}, then);
  EXPECT_EQ(then, kChoices);  // until the next check
  // The check after 40 runs: two and five runs of each way. Of ten by the choices, the third
  // fastest is one of the first five.
  const Ways later{{1'200'000}, {1'000'000}, {1'500'000}};
  auto [timed_runs, last] = run_on(choice, 39 + 21, later);
  EXPECT_EQ(timed_runs, 21);
  EXPECT_EQ(last, kSplit);  // the check's last run is one of its five split
  bool timed = true;
  EXPECT_EQ(choice.way_for(10, timed), kChoices);
  EXPECT_FALSE(timed);
  // After 80 more runs, then 160: of 20 by the choices, the sixth fastest is 1.2 ms.
  run_on(choice, 79 + 21, later);
  EXPECT_EQ(choice.way_for(10, timed), kChoices);
  run_on(choice, 159 + 21, later);
  EXPECT_EQ(choice.way_for(10, timed), kAlone);
  EXPECT_FALSE(timed);
}

// Six decisions at the most: after the last check (640 runs after the one before it) nothing
// is timed any more. 14 settling runs and six checks of 22 (by the choices, runs of 1 ms: two
// to warm up and five; alone, of 0.9 ms: three and five; split, of 1.1 ms: two and five).
TEST(RunChoice, ChecksEndAfterSixDecisions) {
  RunChoice choice;
  const Ways ways{{1'000'000}, {900'000}, {1'100'000}};
  EXPECT_EQ(run_on(choice, 5000, ways).first, kChoosing + 6 * 22);
  EXPECT_EQ(run_on(choice, 5000, ways), std::make_pair(0, kAlone));
}

TEST(RunChoice, MeasuresAnewWhenTheInputsChangeSizeTwofold) {
  RunChoice choice;
  RunWay then = kChoices;
  measure_runs(choice, {{2000}, {1000}}, then);
  EXPECT_EQ(then, kAlone);
  bool timed = true;
  EXPECT_EQ(choice.way_for(20, timed), kAlone);
  EXPECT_FALSE(timed);
  EXPECT_EQ(choice.way_for(21, timed), kChoices);  // by the nodes' choices again, counted
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
