// The thread pool: every item runs once, errors, nesting, many short regions, several
// callers at once, the cost rule, and reference counts of buffers that leave a run.
#include "util/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

// A chunk that throws, on the calling thread or on a worker, reaches the caller once every
// chunk has finished; the pool keeps working afterwards.
TEST(ThreadPool, ChunkExceptionReachesTheCaller) {
  util::ThreadPool pool(2);
  for (int64_t bad_begin : {int64_t{0}, int64_t{50}}) {  // the caller's chunk, a worker's chunk
    std::atomic<int> finished{0};
    auto body = [&](int64_t b, int64_t) {
      if (b == bad_begin) throw std::runtime_error("chunk failed");
      finished.fetch_add(1);
    };
    EXPECT_THROW(pool.parallel_for(100, 10, body), std::runtime_error);
    EXPECT_EQ(finished.load(), 1);  // the other chunk ran to its end before the rethrow
  }
  std::atomic<int64_t> sum{0};
  pool.parallel_for(100, 10, [&](int64_t b, int64_t e) { sum.fetch_add(e - b); });
  EXPECT_EQ(sum.load(), 100);
}

// Runs parallel_for(n, grain) and checks that every item of [0, n) ran exactly once, in at
// most pool.threads() chunks of at least `grain` items (the last may hold the remainder
// only when there is one chunk).
void expect_each_item_once(util::ThreadPool& pool, int64_t n, int64_t grain) {
  std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
  std::atomic<int> chunks{0};
  pool.parallel_for(n, grain, [&](int64_t b, int64_t e) {
    chunks.fetch_add(1);
    for (int64_t i = b; i < e; ++i) seen[static_cast<size_t>(i)].fetch_add(1);
  });
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(seen[static_cast<size_t>(i)].load(), 1) << "item " << i << " of " << n;
  EXPECT_LE(chunks.load(), pool.threads());
  if (n > 0) {
    EXPECT_LE(chunks.load(), std::max<int64_t>(1, n / std::max<int64_t>(grain, 1)));
  }
}

TEST(ThreadPool, EveryItemRunsExactlyOnce) {
  for (int threads : {1, 2, 3, 4}) {
    util::ThreadPool pool(threads);
    for (int64_t n : {0, 1, 2, 3, 7, 64, 1000, 4097}) {
      for (int64_t grain : {0, 1, 2, 5, 100}) expect_each_item_once(pool, n, grain);
    }
  }
}

// Back-to-back regions, with pauses long enough for the workers to stop spinning and sleep
// between some of them: nothing is lost or run twice on either path.
TEST(ThreadPool, ManyShortRegionsInARow) {
  util::ThreadPool pool(2);
  int64_t total = 0;
  for (int r = 0; r < 20000; ++r) {
    std::atomic<int64_t> sum{0};
    pool.parallel_for(2 + r % 5, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) sum.fetch_add(i + 1);
    });
    const int64_t n = 2 + r % 5;
    ASSERT_EQ(sum.load(), n * (n + 1) / 2) << "region " << r;
    total += sum.load();
    if (r % 4000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(total, 0);
}

// A region inside a chunk runs inline on that chunk's thread, whole.
TEST(ThreadPool, NestedRegionsRunInline) {
  util::ThreadPool pool(2);
  std::vector<std::atomic<int>> seen(100 * 10);
  std::atomic<int> inner_on_other_thread{0};
  pool.parallel_for(100, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const std::thread::id outer = std::this_thread::get_id();
      pool.parallel_for(10, 1, [&](int64_t ib, int64_t ie) {
        if (std::this_thread::get_id() != outer) inner_on_other_thread.fetch_add(1);
        for (int64_t j = ib; j < ie; ++j) seen[static_cast<size_t>(i * 10 + j)].fetch_add(1);
      });
    }
  });
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
  EXPECT_EQ(inner_on_other_thread.load(), 0);
}

// Every chunk throws: one of the exceptions reaches the caller, and the pool still works.
TEST(ThreadPool, EveryChunkThrowing) {
  util::ThreadPool pool(3);
  for (int r = 0; r < 100; ++r)
    EXPECT_THROW(pool.parallel_for(30, 1, [](int64_t, int64_t) { throw std::runtime_error("x"); }),
                 std::runtime_error);
  expect_each_item_once(pool, 30, 1);
}

// Several threads share one pool at once: a caller that finds it busy runs its region
// inline, so every region still covers its items exactly once.
TEST(ThreadPool, SeveralCallersAtOnce) {
  util::ThreadPool pool(2);
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int r = 0; r < 2000; ++r) {
        const int64_t n = 1 + (r + t) % 50;
        std::vector<int> seen(static_cast<size_t>(n), 0);  // chunks are disjoint
        pool.parallel_for(n, 1, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) ++seen[static_cast<size_t>(i)];
        });
        for (int v : seen) {
          if (v != 1) failures.fetch_add(1);
        }
      }
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(failures.load(), 0);
}

// The cost rule: work below two threads' minimum stays on one thread; enough work for
// every thread gets them all; grains are the items that make up the minimum.
TEST(ThreadPool, CostRuleGivesThreadsByWork) {
  util::ThreadPool pool(4);
  EXPECT_EQ(pool.threads_for(0), 1);
  EXPECT_EQ(pool.threads_for(util::kMinWorkPerThread * 2 - 1), 1);
  EXPECT_EQ(pool.threads_for(util::kMinWorkPerThread * 2), 2);
  EXPECT_EQ(pool.threads_for(util::kMinWorkPerThread * 3), 3);
  EXPECT_EQ(pool.threads_for(util::kMinWorkPerThread * 100), 4);
  EXPECT_EQ(util::grain_for(1), util::kMinWorkPerThread);
  EXPECT_EQ(util::grain_for(0), util::kMinWorkPerThread);
  EXPECT_EQ(util::grain_for(util::kMinWorkPerThread * 5), 1);
  EXPECT_EQ(util::grain_for(3), (util::kMinWorkPerThread + 2) / 3);
  // parallel_for_work: below two minimums one chunk on the caller's thread, above several.
  std::atomic<int> chunks{0};
  const auto caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  pool.parallel_for_work(100, util::kMinWorkPerThread / 100, [&](int64_t, int64_t) {
    chunks.fetch_add(1);
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
  });
  EXPECT_EQ(chunks.load(), 1);
  EXPECT_EQ(elsewhere.load(), 0);
  chunks = 0;
  pool.parallel_for_work(100, util::kMinWorkPerThread,
                         [&](int64_t, int64_t) { chunks.fetch_add(1); });
  EXPECT_EQ(chunks.load(), 4);
}
Session session_for(const test::GraphBuilder& g, const std::string& name) {
  return Session(
      Model::load(test::save_model(test::make_model(g), test::scratch_dir(name), "m.onnx")));
}

// Buffers made during a run count references without atomics while only the run's thread
// can reach them; the outputs a run returns must count atomically again. Here one thread
// feeds an output back into runs that copy and drop it, while another copies it too: the
// count must stay exact.
TEST(ThreadPool, OutputsOfARunCountReferencesAtomically) {
  test::GraphBuilder make;
  make.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  make.node("Neg", {"x"}, {"y"});
  Session maker = session_for(make, "shared_out_make");
  Value y = maker.run({{"x", test::f32({2}, {1, 2})}})[0].second;
  ASSERT_TRUE(y.tensor().unique());

  test::GraphBuilder use;  // copies its input (Identity), then drops the copy after Neg
  use.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  use.node("Identity", {"x"}, {"x_copy"});
  use.node("Neg", {"x_copy"}, {"y"});
  Session user = session_for(use, "shared_out_use");
  {
    const NamedValues inputs{{"x", y}};
    std::thread runs([&] {
      for (int i = 0; i < 200000; ++i) user.run(inputs);
    });
    for (int i = 0; i < 2000000; ++i) {
      Tensor copy = y.tensor();
      (void)copy;
    }
    runs.join();
  }
  EXPECT_TRUE(y.tensor().unique());
}

// One session run from several threads in turn (one run at a time, as the API allows), on
// 2 threads with an Add large enough to split: every run gives the reference sums.
TEST(ThreadPool, SessionRunFromSeveralThreadsInTurn) {
  const int64_t n = 1 << 19;
  test::GraphBuilder g;
  g.input("a", ElemType::Float, {n}).input("b", ElemType::Float, {n});
  g.output("y", ElemType::Float, {n});
  g.node("Add", {"a", "b"}, {"y"});
  SessionOptions options;
  options.threads = 2;
  Session session(
      Model::load(test::save_model(test::make_model(g), test::scratch_dir("pool_turns"), "m.onnx")),
      options);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[static_cast<size_t>(i)] = static_cast<float>(i % 1000);
    b[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i % 7);
  }
  const NamedValues inputs{{"a", test::f32({n}, a)}, {"b", test::f32({n}, b)}};
  std::mutex one_run_at_a_time;
  std::atomic<int> wrong{0};
  std::vector<std::thread> users;
  for (int t = 0; t < 3; ++t)
    users.emplace_back([&] {
      for (int r = 0; r < 20; ++r) {
        std::lock_guard lock(one_run_at_a_time);
        const Tensor y = session.run(inputs)[0].second.tensor();
        for (int64_t i = 0; i < n; ++i)
          if (y.data<float>()[i] != a[static_cast<size_t>(i)] + b[static_cast<size_t>(i)]) {
            wrong.fetch_add(1);
            break;
          }
      }
    });
  for (auto& u : users) u.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace bough
