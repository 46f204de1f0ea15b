// Threads for work that may block: the gRPC server's handlers run on gRPC's few event threads,
// and hand here what could hold one of them for long (a run that waits for a session or takes
// seconds, a model load). Threads are started as work comes, up to a maximum, and stay.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bough::serve {

class Workers {
 public:
  explicit Workers(int max_threads);
  // Runs the work queued still, then joins the threads.
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // Queues `task` for the next free thread, starting one if every thread is busy and fewer
  // than the maximum run. `task` must not throw.
  void post(std::function<void()> task);

 private:
  void work();

  const size_t max_threads_;
  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<std::function<void()>> tasks_;  // guarded by mutex_
  std::vector<std::thread> threads_;         // guarded by mutex_
  size_t idle_ = 0;                          // threads waiting for a task; guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
};

}  // namespace bough::serve
