#include "exec/thread_pool.h"

namespace bough::exec {

thread_local bool ThreadPool::in_parallel_region_ = false;

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

namespace {
std::pair<int64_t, int64_t> chunk(int64_t n, int chunks, int index) {
  return {n * index / chunks, n * (index + 1) / chunks};
}
}  // namespace

void ThreadPool::run_chunks(int64_t n, int chunks, void* fn, Trampoline call) {
  {
    std::lock_guard lock(mutex_);
    job_ = fn;
    job_call_ = call;
    job_n_ = n;
    job_chunks_ = chunks;
    pending_ = chunks - 1;
    ++generation_;
  }
  wake_.notify_all();
  auto [b, e] = chunk(n, chunks, 0);
  in_parallel_region_ = true;
  call(fn, b, e);
  in_parallel_region_ = false;
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

void ThreadPool::worker_loop(int index) {
  uint64_t seen = 0;
  while (true) {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (index >= job_chunks_) continue;
    void* fn = job_;
    Trampoline call = job_call_;
    auto [b, e] = chunk(job_n_, job_chunks_, index);
    lock.unlock();
    in_parallel_region_ = true;
    call(fn, b, e);
    in_parallel_region_ = false;
    lock.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace bough::exec
