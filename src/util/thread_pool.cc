#include "util/thread_pool.h"

namespace bough::util {

thread_local bool ThreadPool::in_parallel_region_ = false;

ThreadPool::ThreadPool(int threads, RegionHook hook) : hook_(hook) {
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
    job_error_ = nullptr;
    pending_ = chunks - 1;
    ++generation_;
  }
  wake_.notify_all();
  auto [b, e] = chunk(n, chunks, 0);
  if (hook_) hook_(true);
  std::exception_ptr error = run_chunk(fn, call, b, e);
  if (hook_) hook_(false);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
  if (!error) error = job_error_;
  job_error_ = nullptr;
  if (error) std::rethrow_exception(error);
}

std::exception_ptr ThreadPool::run_chunk(void* fn, Trampoline call, int64_t begin, int64_t end) {
  std::exception_ptr error;
  in_parallel_region_ = true;
  try {
    call(fn, begin, end);
  } catch (...) {
    error = std::current_exception();
  }
  in_parallel_region_ = false;
  return error;
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
    std::exception_ptr error = run_chunk(fn, call, b, e);
    lock.lock();
    if (error && !job_error_) job_error_ = error;
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace bough::util
