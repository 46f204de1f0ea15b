#include "util/thread_pool.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace bough::util {

thread_local bool ThreadPool::in_parallel_region_ = false;
thread_local ThreadPool::NodePolicy ThreadPool::policy_;

namespace {

using Clock = std::chrono::steady_clock;

// How long a worker keeps spinning after its last chunk before it sleeps, and the caller
// before it sleeps waiting for the workers' chunks. Waking a sleeping thread costs 40-50 µs
// on the VMs measured, so a worker that spins through the gap between two parallel kernels
// of a run (serial kernels in between, usually tens of µs) starts the next at once; 200 µs
// covers gaps of four wake-ups. Bounded so that an idle session stops using its core soon
// after a run, and each spin step yields the core to any other runnable thread, so that on
// a loaded machine the spin takes time mostly from idle cycles. (Under the load of the
// measurements, 0, 50, 200 and 1000 µs gave the same 2-thread times within noise; the
// claimed chunks below are what keep a loaded machine's 2 threads from being slower.)
constexpr std::chrono::microseconds kSpinTime{200};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until done() or the spin time is over; whether done() held.
template <typename Done>
bool spin_until(Done done) {
  const Clock::time_point deadline = Clock::now() + kSpinTime;
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (Clock::now() >= deadline) return done();
    std::this_thread::yield();  // costs little when nothing else wants the core
  }
}

// state_ packs the generation (which job), its number of chunks and how many are claimed.
constexpr int kCountBits = 12;  // so at most 4095 threads
constexpr uint64_t kCountMask = (uint64_t{1} << kCountBits) - 1;
constexpr uint64_t generation_of(uint64_t state) { return state >> (2 * kCountBits); }
constexpr int chunks_of(uint64_t state) {
  return static_cast<int>(state >> kCountBits & kCountMask);
}
constexpr int claimed_of(uint64_t state) { return static_cast<int>(state & kCountMask); }

std::pair<int64_t, int64_t> chunk(int64_t n, int chunks, int index) {
  return {n * index / chunks, n * (index + 1) / chunks};
}

}  // namespace

ThreadPool::ThreadPool(int threads, RegionHook hook) : hook_(hook) {
  threads = std::min<int>(threads, kCountMask);  // chunks must fit in state_
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run_chunks(int64_t n, int chunks, void* fn, Trampoline call) {
  job_ = fn;
  job_call_ = call;
  job_n_ = n;
  job_error_ = nullptr;
  finished_.store(0, std::memory_order_relaxed);
  // seq_cst, against sleeping_workers_: a worker going to sleep counts itself there, then
  // looks at state_ again.
  const uint64_t generation = generation_of(state_.load(std::memory_order_relaxed)) + 1;
  state_.store(generation << (2 * kCountBits) | static_cast<uint64_t>(chunks) << kCountBits);
  if (sleeping_workers_.load() > 0) {
    std::lock_guard lock(mutex_);
    wake_.notify_all();
  }
  if (hook_) hook_(true);
  // The caller runs chunks too, including any a slow worker (asleep, descheduled) has not
  // claimed yet, so a busy machine delays a region by no more than the chunks in flight.
  claim_and_run(generation);
  if (hook_) hook_(false);
  wait_until_done(chunks);
  job_ = nullptr;
  std::exception_ptr error = std::move(job_error_);
  job_error_ = nullptr;
  busy_.store(false, std::memory_order_release);
  if (error) std::rethrow_exception(error);
}

void ThreadPool::claim_and_run(uint64_t generation) {
  uint64_t s = state_.load(std::memory_order_acquire);
  while (generation_of(s) == generation && claimed_of(s) < chunks_of(s)) {
    if (!state_.compare_exchange_weak(s, s + 1)) continue;  // s is reloaded
    // Claimed: the caller leaves the job alone until this chunk has finished.
    const int chunks = chunks_of(s);
    auto [b, e] = chunk(job_n_, chunks, claimed_of(s));
    std::exception_ptr error = run_chunk(job_, job_call_, b, e);
    if (error) {
      std::lock_guard lock(error_mutex_);
      if (!job_error_) job_error_ = error;
    }
    // seq_cst, against caller_sleeping_ (see wait_until_done).
    if (finished_.fetch_add(1) + 1 == chunks && caller_sleeping_.load()) {
      std::lock_guard lock(mutex_);
      done_.notify_one();
    }
    s = state_.load(std::memory_order_acquire);
  }
}

void ThreadPool::wait_until_done(int chunks) {
  auto done = [&] { return finished_.load() == chunks; };
  if (spin_until(done)) return;
  std::unique_lock lock(mutex_);
  caller_sleeping_.store(true);
  done_.wait(lock, done);
  caller_sleeping_.store(false);
}

uint64_t ThreadPool::wait_for_job(uint64_t seen) {
  uint64_t s = 0;
  auto ready = [&] {
    s = state_.load(std::memory_order_acquire);
    return stop_.load(std::memory_order_relaxed) || generation_of(s) != seen;
  };
  if (spin_until(ready)) return s;
  std::unique_lock lock(mutex_);
  sleeping_workers_.fetch_add(1);
  wake_.wait(lock, ready);
  sleeping_workers_.fetch_sub(1);
  return s;
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

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  while (true) {
    const uint64_t s = wait_for_job(seen);
    if (stop_.load()) return;
    seen = generation_of(s);
    claim_and_run(seen);
  }
}

}  // namespace bough::util
