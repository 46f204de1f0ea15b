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
  // `odd`: the node's place in its plan is odd. Neighbours measure their serial runs apart
  // (below), so that each node's are taken beside split ones.
  explicit ThreadChoice(bool odd) : odd_(odd) {}

  // Runs a node takes to choose: its probe, the warm-up and the measure below.
  static constexpr int kChoosingRuns = 1 + 4 + 3 * 3;

  // Nothing to decide: the node never wanted to split when it was probed; it runs under the
  // cost rule alone, at no cost per run.
  bool settled_free() const { return mode_ == Mode::Free; }

  // The policy for the node's next run, whose inputs hold `size` elements; whether that run
  // is to be timed (then report its time to record()).
  util::ThreadPool::NodePolicy policy_for(int64_t size, bool& timed);
  // A timed run took `ns`; `wanted_split`: whether a region of it would have split.
  void record(int64_t ns, bool wanted_split);

 private:
  enum class Mode : uint8_t { Probe, Warm, Measure, Serial, Split, Free };
  // A session's first runs are slower than its later ones, and unlike each other: first
  // touches of its memory, each thread's buffers growing, caches to fill. small_cnn at 2
  // threads took 9 ms, then 220-470 µs, then 130-225, and was within 10 % of its steady time
  // from the fifth run on; measured from the second run, its first convolution's runs alone
  // took 1.7-1.9 times their steady time. So after its probe a node runs kWarmRuns runs as
  // the cost rule says, untimed, and measures after them.
  static constexpr int kWarmRuns = 4;
  // The measure is three blocks of kRunsEach runs. First every node splits (timed). Then the
  // even nodes run alone (timed) while the odd ones split, then the other way round. So a
  // node runs alone beside neighbours that split, as they will unless they too are found to
  // pay: alone after a split producer, a node reads half its input from the other core's
  // cache, which measuring all nodes alone at once would hide (a Relu after a split MatMul:
  // 6.6 µs split, 22 µs alone; 256x256 floats). And in blocks, not alternating, so that a
  // worker asleep after a long serial run does not bill its wake-up to the next split one.
  // Each way's median counts.
  static constexpr int kRunsEach = 3;
  static constexpr int kMeasureRuns = 3 * kRunsEach;
  static_assert(kChoosingRuns == 1 + kWarmRuns + kMeasureRuns);
  void restart(int64_t size);
  bool alone_block() const { return runs_ / kRunsEach == (odd_ ? 2 : 1); }

  Mode mode_ = Mode::Probe;
  bool odd_;
  uint8_t runs_ = 0;                   // runs since the warm-up or the measure began
  int64_t size_ = -1;                  // the inputs' elements when it was measured
  uint32_t split_ns_[kRunsEach] = {};  // the timed runs of each way (saturated)
  uint32_t alone_ns_[kRunsEach] = {};
};

// How a session runs its nodes: by their own choices, all on the calling thread, or all as
// the cost rule says.
enum class RunWay : uint8_t { ByChoices, Alone, Split };

// The same question for a whole run: whether the nodes' choices together beat running every
// node on the calling thread, or splitting every node as the cost rule says. A node's choice
// sees its own time, and a split that pays for the node can still cost its neighbours more
// (small CNNs: each convolution split, the whole run slower than on one thread); and with
// three runs a way the nodes' measures are noisy, so that a session whose every split pays
// could still choose to run most nodes alone (small_cnn on a VM while its two vCPUs were near,
// docs/threads.md: every node split took 88.5 µs against 129 alone, and 6-8 of 27 sessions
// ran alone by their nodes' choices). So the session compares whole runs once its nodes have
// chosen: five by their choices, five all alone, five all split, and keeps the faster of the
// two that split only when it beats alone by 3 % (the choices, on a tie).
// - Each way's five follow warm-up runs that are not compared, at least one and until they
//   add up to 2 ms: switching ways moves the run's working set between the cores' caches,
//   and the runs just after a switch pay for it (the decoder: the first three runs alone
//   after split ones took 300-400 µs, then 180; the first split ones after runs alone 380,
//   330, 280, then 220).
// - Each way counts by its lower quartile (the second fastest of five), not its median.
//   Noise only adds time, and not to both ways alike: on the VMs measured, a third or more
//   of the decoder's runs alone took 260-300 µs instead of 175-185, while its split runs
//   stayed within 210-245. Resampling those runs, a median of five runs alone came out above
//   the split ones' in 11-20 % of first checks; with lower quartiles, in 4-6 %
//   (docs/threads.md).
// Five runs a way decide wrongly when the machine stalls on most of them, and a wrong
// decision would stand for the session's life, so the session checks again after 40, 80, ...
// 640 more runs, five runs a way each time, and decides by all the checks' runs (at most 30
// a way): a first decision the noise made is undone, and the checks cost a few runs in a
// thousand. Two cases skip the other ways and keep the choices: no node of the first runs
// wanted to split (nothing to choose, and a run alone would pay for setting the thread's
// policy around it), and runs of a second or more (five runs alone would cost seconds; and a
// split that pays for each node of so long a run pays for the run). Not 2 ms, as first: the
// classifier of the CNN suite (3.5 ms a run) was 7-9 % slower by its nodes' choices than on
// one thread. Measured anew, from the start, when the inputs change size twofold, as for a
// node.
class RunChoice {
 public:
  // How the next run, whose inputs hold `size` elements, runs; whether it is to be timed
  // (then report its time to record()).
  RunWay way_for(int64_t size, bool& timed);
  // A timed run took `ns`; `wanted_split`: whether any of its nodes wanted to split.
  void record(int64_t ns, bool wanted_split);

 private:
  static constexpr int kRunsEach = 5;
  // A way's warm-up: runs until they add up to kWarmNs, kMaxWarmRuns at most.
  static constexpr int64_t kWarmNs = 2'000'000;
  static constexpr int kMaxWarmRuns = 32;
  static constexpr int kSettleRuns = ThreadChoice::kChoosingRuns;
  static constexpr int kChecks = 6;            // the first decision and five checks
  static constexpr int kFirstCheckAfter = 40;  // runs after the first decision; then twice
  static constexpr uint32_t kLongRunNs = 1'000'000'000;
  static constexpr int kWays = 3;
  // Measure: timing runs (after the settling runs, the first time); Decided: `way_`, until
  // the next check; Kept: the choices, for good (see above).
  enum class Mode : uint8_t { Measure, Decided, Kept };

  // Starts a way's block of a check: its warm-up, then its kRunsEach compared runs.
  void begin_block(RunWay way);
  void decide();

  Mode mode_ = Mode::Measure;
  RunWay way_ = RunWay::ByChoices;  // the way of the check's block in progress, or decided
  bool wanted_split_ = false;       // by a node of a run since the first measure began
  bool warming_ = true;             // the block's warm-up is in progress
  uint8_t checks_ = 0;              // decisions made at this size
  uint8_t warm_runs_ = 0;
  uint8_t block_runs_ = 0;  // compared runs of the block so far
  int runs_ = 0;            // settling runs, or runs since the decision
  int64_t warm_ns_ = 0;
  int64_t size_ = -1;
  using Runs = uint32_t[kChecks * kRunsEach];  // a way's runs of every check, in turn
  Runs& runs(RunWay way) { return ns_[static_cast<size_t>(way)]; }
  Runs ns_[kWays] = {};
};

// Whether a node on this thread wanted to split, under a ChosenRun, since the last call.
bool take_wanted_split();
void note_wanted_split();

// Runs a node under its ThreadChoice: the thread's policy for the node's time, restored after
// (also when the node throws), so that the nodes of a nested plan each run under their own
// and the enclosing node's measure sees only its own regions.
class ChosenRun {
 public:
  explicit ChosenRun(util::ThreadPool::NodePolicy policy)
      : saved_(util::ThreadPool::exchange_policy(policy)) {}
  ~ChosenRun() {
    if (util::ThreadPool::exchange_policy(saved_).wanted_split) note_wanted_split();
  }
  ChosenRun(const ChosenRun&) = delete;
  ChosenRun& operator=(const ChosenRun&) = delete;
  bool wanted_split() const { return util::ThreadPool::policy().wanted_split; }

 private:
  util::ThreadPool::NodePolicy saved_;
};

}  // namespace bough::exec
