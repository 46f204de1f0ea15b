// The threads the gRPC server hands blocking calls to: every task posted runs, the queued ones
// too when the Workers are destroyed, on at most max_threads threads at once, which are
// started as tasks come and then reused.
#include "serve/workers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

namespace bough::serve {
namespace {

TEST(Workers, RunsEveryTaskIncludingThoseQueuedAtDestruction) {
  std::atomic<int> ran{0};
  {
    Workers workers(2);
    for (int i = 0; i < 100; ++i) workers.post([&] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(Workers, RunsAtMostMaxThreadsAtOnceAndReusesThem) {
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0, most = 0, done = 0;
  bool released = false;
  std::set<std::thread::id> threads;
  {
    Workers workers(2);
    for (int i = 0; i < 3; ++i)
      workers.post([&] {
        std::unique_lock lock(mutex);
        threads.insert(std::this_thread::get_id());
        most = std::max(most, ++running);
        changed.notify_all();
        changed.wait(lock, [&] { return released; });
        --running;
        ++done;
      });
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(30), [&] { return running == 2; }));
    // The third task waits for one of the two threads: none is started for it.
    changed.wait_for(lock, std::chrono::milliseconds(100), [&] { return running > 2; });
    EXPECT_EQ(running, 2);
    released = true;
    changed.notify_all();
  }
  EXPECT_EQ(done, 3);
  EXPECT_EQ(most, 2);
  EXPECT_EQ(threads.size(), 2u);
}

}  // namespace
}  // namespace bough::serve
