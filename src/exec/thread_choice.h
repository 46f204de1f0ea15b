// Whether a node's parallel regions are worth the pool's other threads, measured on the
// node's own first runs. The cost rule (util/thread_pool.h) splits each region by its work
// alone; it cannot see what a split costs around it: the cache lines of the node's inputs and
// outputs that move between cores, a worker woken for a few microseconds. So a plan times
// each node that would split, alternately on the calling thread alone and split, and keeps
// what was faster (docs/threads.md). Nothing is measured, and nothing changes, at 1 thread.
#pragma once

#include <cstdint>

#include "util/thread_pool.h"

namespace bough::exec {

class ThreadChoice {
 public:
  // Nothing to decide: the node never wanted to split when it was probed; it runs under the
  // cost rule alone, at no cost per run.
  bool settled_free() const { return mode_ == Mode::Free; }

  // The policy for the node's next run, whose inputs hold `size` elements; whether that run
  // is to be timed (then report its time to record()).
  util::ThreadPool::NodePolicy policy_for(int64_t size, bool& timed);
  // A timed run took `ns`; `wanted_split`: whether a region of it would have split.
  void record(int64_t ns, bool wanted_split);

 private:
  enum class Mode : uint8_t { Probe, Measure, Serial, Split, Free };
  // Runs timed in each of the two ways before deciding.
  static constexpr int kRunsEach = 3;
  void restart(int64_t size);

  Mode mode_ = Mode::Probe;
  uint8_t runs_ = 0;         // timed runs since the measure began
  int64_t size_ = -1;        // the inputs' elements when it was measured
  int64_t best_serial_ = 0;  // fastest timed run on the calling thread alone, ns
  int64_t best_split_ = 0;   // fastest timed run under the cost rule, ns
};

// Runs a node under its ThreadChoice: the thread's policy for the node's time, restored after
// (also when the node throws), so that the nodes of a nested plan each run under their own
// and the enclosing node's measure sees only its own regions.
class ChosenRun {
 public:
  explicit ChosenRun(util::ThreadPool::NodePolicy policy)
      : saved_(util::ThreadPool::exchange_policy(policy)) {}
  ~ChosenRun() { util::ThreadPool::exchange_policy(saved_); }
  ChosenRun(const ChosenRun&) = delete;
  ChosenRun& operator=(const ChosenRun&) = delete;
  bool wanted_split() const { return util::ThreadPool::policy().wanted_split; }

 private:
  util::ThreadPool::NodePolicy saved_;
};

}  // namespace bough::exec
