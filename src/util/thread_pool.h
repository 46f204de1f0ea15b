// A fixed pool of worker threads for kernels that split their outer loop, and the one cost
// rule that decides how many threads a piece of work gets.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace bough::util {

// The cost model. Work is counted as bytes read and written (memory-bound loops) or as
// multiply-adds (compute-bound loops such as GEMM): on this class of machine both cost about
// 1-3 µs per 2^17 on one core. Starting a worker that is still spinning costs about 1 µs
// (one that sleeps, 40-50 µs, but the caller claims the chunks it has not started), so a
// thread is worth its start from about that much work: below two of these a loop stays on
// the calling thread. (2^20, the rule until 2026-11-29, kept 64³ GEMM and a 2^16-float Add
// on one thread at 1.5 times their 2-thread time: docs/threads.md.)
inline constexpr int64_t kMinWorkPerThread = int64_t{1} << 17;

// The grain (fewest items per chunk) for items that each cost `item_work` (see above).
inline int64_t grain_for(int64_t item_work) {
  item_work = std::max<int64_t>(item_work, 1);
  return std::max<int64_t>(1, (kMinWorkPerThread + item_work - 1) / item_work);
}

class ThreadPool {
 public:
  // How the calling thread's regions are run, set around each node by the plan that measured
  // which of its nodes gain from more threads (exec/thread_choice.h). `serial`: every region
  // runs inline whatever its work. `wanted_split`: set by each region that the cost rule
  // would split (whether or not it was), so that a node that never would need no measuring.
  struct NodePolicy {
    bool serial = false;
    bool wanted_split = false;
  };
  // Replaces this thread's policy, and returns the one it had.
  static NodePolicy exchange_policy(NodePolicy p) { return std::exchange(policy_, p); }
  static const NodePolicy& policy() { return policy_; }

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

  // How many threads `work` (bytes or multiply-adds, see kMinWorkPerThread) keeps busy.
  int threads_for(int64_t work) const {
    const auto n = static_cast<int>(std::clamp<int64_t>(work / kMinWorkPerThread, 1, threads()));
    if (n == 1 || in_parallel_region_) return n;
    policy_.wanted_split = true;
    return policy_.serial ? 1 : n;
  }

  // Calls fn(begin, end) over a partition of [0, n) into at most threads() chunks of at
  // least `grain` items, and returns when all are done, rethrowing a chunk's exception then.
  // Runs inline (no allocation, no locking) when `n` is below two grains, there are no
  // workers, it is called from inside a chunk (nesting), this thread's policy is serial, or
  // another thread is using the pool at the moment.
  template <typename F>
  void parallel_for(int64_t n, int64_t grain, F&& fn) {
    grain = std::max<int64_t>(grain, 1);
    // Tested before dividing: most calls are small, and a division costs more than they do.
    const bool split = n >= 2 * grain && !workers_.empty() && !in_parallel_region_;
    if (split) policy_.wanted_split = true;
    if (!split || policy_.serial || !try_acquire()) {
      if (n > 0) fn(int64_t{0}, n);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    run_chunks(n, static_cast<int>(std::min<int64_t>(threads(), n / grain)), &fn,
               [](void* f, int64_t b, int64_t e) { (*static_cast<Fn*>(f))(b, e); });
  }

  // parallel_for over `n` items that each cost `item_work` (bytes or multiply-adds).
  template <typename F>
  void parallel_for_work(int64_t n, int64_t item_work, F&& fn) {
    parallel_for(n, grain_for(item_work), std::forward<F>(fn));
  }

 private:
  using Trampoline = void (*)(void*, int64_t, int64_t);
  bool try_acquire() { return !busy_.exchange(true, std::memory_order_acquire); }
  void run_chunks(int64_t n, int chunks, void* fn, Trampoline call);
  void worker_loop();
  // Runs chunks of job `generation` while any is unclaimed.
  void claim_and_run(uint64_t generation);
  // Spins, then sleeps, until a job other than `seen` is published or the pool stops; the
  // state then.
  uint64_t wait_for_job(uint64_t seen);
  void wait_until_done(int chunks);
  static std::exception_ptr run_chunk(void* fn, Trampoline call, int64_t begin, int64_t end);

  static thread_local bool in_parallel_region_;  // this thread is running a chunk
  static thread_local NodePolicy policy_;
  RegionHook hook_;
  std::vector<std::thread> workers_;
  std::atomic<bool> busy_{false};  // a thread is running a region on the pool

  // The job of the region in progress, written by the caller before it publishes `state_`
  // and left alone until every claimed chunk has finished.
  void* job_ = nullptr;
  Trampoline job_call_ = nullptr;
  int64_t job_n_ = 0;
  // The job's generation, its number of chunks and how many are claimed (thread_pool.cc
  // packs them): chunks are claimed by compare-and-swap, so one that a slow worker has not
  // claimed yet is run by the caller instead.
  std::atomic<uint64_t> state_{0};
  std::atomic<int> finished_{0};  // chunks of the current job that have finished
  std::mutex error_mutex_;
  std::exception_ptr job_error_;  // the first exception of a worker's chunk

  // Sleeping: a worker spins for a while after its last chunk before it sleeps on `wake_`;
  // the caller, likewise, before it sleeps on `done_`.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<int> sleeping_workers_{0};
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<bool> stop_{false};
};

}  // namespace bough::util
