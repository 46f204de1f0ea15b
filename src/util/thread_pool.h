// A fixed pool of worker threads for kernels that split their outer loop.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace bough::util {

class ThreadPool {
 public:
  // Called on the calling thread just before it runs its own chunk beside the workers
  // (entering = true) and just after (false): the place to make thread-local state safe
  // for sharing, such as how reference counts are kept.
  using RegionHook = void (*)(bool entering);

  // `threads` counts the calling thread: 1 means no workers.
  explicit ThreadPool(int threads, RegionHook hook = nullptr);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls fn(begin, end) over a partition of [0, n) into at most threads() chunks, and
  // returns when all are done, rethrowing a chunk's exception then. Runs inline (no
  // allocation, no locking) when `n` is below two grains, there are no workers, or it is
  // called from inside a chunk (nesting).
  template <typename F>
  void parallel_for(int64_t n, int64_t grain, F&& fn) {
    grain = std::max<int64_t>(grain, 1);
    // Tested before dividing: most calls are small, and a division costs more than they do.
    if (n < 2 * grain || workers_.empty() || in_parallel_region_) {
      if (n > 0) fn(int64_t{0}, n);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    run_chunks(n, static_cast<int>(std::min<int64_t>(threads(), n / grain)), &fn,
               [](void* f, int64_t b, int64_t e) { (*static_cast<Fn*>(f))(b, e); });
  }

 private:
  using Trampoline = void (*)(void*, int64_t, int64_t);
  void run_chunks(int64_t n, int chunks, void* fn, Trampoline call);
  void worker_loop(int index);
  static std::exception_ptr run_chunk(void* fn, Trampoline call, int64_t begin, int64_t end);

  static thread_local bool in_parallel_region_;  // this thread is running a chunk
  RegionHook hook_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  void* job_ = nullptr;
  Trampoline job_call_ = nullptr;
  int64_t job_n_ = 0;
  int job_chunks_ = 0;
  std::exception_ptr job_error_;  // the first exception of a worker's chunk
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace bough::util
