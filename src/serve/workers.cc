#include "serve/workers.h"

#include <algorithm>

namespace bough::serve {

Workers::Workers(int max_threads) : max_threads_(static_cast<size_t>(std::max(max_threads, 1))) {}

Workers::~Workers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void Workers::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    // A thread woken for an earlier task still counts as idle until it takes it.
    if (tasks_.size() > idle_ && threads_.size() < max_threads_)
      threads_.emplace_back([this] { work(); });
  }
  queued_.notify_one();
}

void Workers::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    queued_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    --idle_;
    if (tasks_.empty()) return;  // stopping, and nothing left to run
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace bough::serve
