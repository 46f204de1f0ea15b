#include "exec/thread_choice.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace bough::exec {

namespace {
uint32_t saturated(int64_t ns) {
  return static_cast<uint32_t>(std::min<int64_t>(ns, std::numeric_limits<uint32_t>::max()));
}
// Whether `size` is within a factor of two of `measured`.
bool near(int64_t size, int64_t measured) { return size <= 2 * measured && 2 * size >= measured; }
// The k-th smallest of the first `n` of `t` (k < n <= N).
template <size_t N>
uint32_t nth_smallest(const uint32_t (&t)[N], size_t n, size_t k) {
  uint32_t sorted[N];
  std::copy(t, t + n, sorted);
  std::nth_element(sorted, sorted + k, sorted + n);
  return sorted[k];
}
template <size_t N>
uint32_t median(const uint32_t (&t)[N], size_t n = N) {
  return nth_smallest(t, n, n / 2);
}
template <size_t N>
uint32_t lower_quartile(const uint32_t (&t)[N], size_t n) {
  return nth_smallest(t, n, n / 4);
}

// Set when a node run under a ChosenRun wanted to split; taken by the session's RunChoice.
thread_local bool wanted_split_on_thread = false;

// A split is kept only when its median run beats the calling thread's alone by 5 %: below
// that the gain is within the noise of a few runs, and the time a split costs the nodes
// around it is not all inside the node's own.
bool split_pays(uint32_t split_ns, uint32_t serial_ns) {
  return uint64_t{split_ns} * 20 < uint64_t{serial_ns} * 19;
}
}  // namespace

void ThreadChoice::restart(int64_t size) {
  mode_ = Mode::Probe;
  size_ = size;
}

util::ThreadPool::NodePolicy ThreadChoice::policy_for(int64_t size, bool& timed) {
  // A decision holds while the inputs stay within a factor of two of the size it was
  // measured at; past that, work of another size is measured anew (a Loop whose tensors
  // grow does so a logarithmic number of times).
  if (mode_ != Mode::Probe && !near(size, size_)) restart(size);
  switch (mode_) {
    case Mode::Probe:
      size_ = size;
      [[fallthrough]];
    case Mode::Warm:  // the warm-up's runs are timed only to be counted
      timed = true;
      return {};
    case Mode::Measure:
      timed = true;
      return {.serial = alone_block()};
    case Mode::Serial:
      timed = false;
      return {.serial = true};
    case Mode::Split:
    case Mode::Free:
      break;
  }
  timed = false;
  return {};
}

void ThreadChoice::record(int64_t ns, bool wanted_split) {
  if (mode_ == Mode::Probe) {
    // The first run is not timed against anything: it pays for first touches of memory.
    mode_ = wanted_split ? Mode::Warm : Mode::Free;
    runs_ = 0;
    return;
  }
  if (mode_ == Mode::Warm && ++runs_ == kWarmRuns) {
    mode_ = Mode::Measure;
    runs_ = 0;
    return;
  }
  if (mode_ != Mode::Measure) return;
  const uint32_t t = saturated(ns);
  if (runs_ < kRunsEach)
    split_ns_[runs_] = t;
  else if (alone_block())
    alone_ns_[runs_ % kRunsEach] = t;
  if (++runs_ == kMeasureRuns)
    mode_ = split_pays(median(split_ns_), median(alone_ns_)) ? Mode::Split : Mode::Serial;
}

RunWay RunChoice::way_for(int64_t size, bool& timed) {
  if (size_ >= 0 && !near(size, size_)) *this = RunChoice();
  if (size_ < 0) size_ = size;
  switch (mode_) {
    case Mode::Measure:
      timed = true;  // the nodes' choosing runs are counted too
      return way_;
    case Mode::Kept:
      timed = false;
      return RunWay::ByChoices;
    case Mode::Decided:
      break;
  }
  // The next check after 40, 80, ... runs: twice the runs to the one before.
  if (checks_ < kChecks && ++runs_ > kFirstCheckAfter << (checks_ - 1)) {  // checks_ >= 1
    mode_ = Mode::Measure;
    begin_block(RunWay::ByChoices);
    timed = true;
    return way_;
  }
  timed = false;
  return way_;
}

void RunChoice::begin_block(RunWay way) {
  way_ = way;
  warming_ = true;
  warm_runs_ = 0;
  warm_ns_ = 0;
  block_runs_ = 0;
}

void RunChoice::record(int64_t ns, bool wanted_split) {
  if (mode_ != Mode::Measure) return;
  wanted_split_ = wanted_split_ || wanted_split;
  if (checks_ == 0 && runs_ < kSettleRuns) {  // the nodes are still choosing
    ++runs_;
    return;
  }
  if (warming_) {
    warm_ns_ += ns;
    warming_ = warm_ns_ < kWarmNs && ++warm_runs_ < kMaxWarmRuns;
    return;
  }
  runs(way_)[checks_ * kRunsEach + block_runs_] = saturated(ns);
  if (++block_runs_ < kRunsEach) return;
  switch (way_) {
    case RunWay::ByChoices:
      if (checks_ == 0 &&
          (!wanted_split_ || median(runs(RunWay::ByChoices), kRunsEach) >= kLongRunNs)) {
        mode_ = Mode::Kept;
        return;
      }
      return begin_block(RunWay::Alone);
    case RunWay::Alone:
      return begin_block(RunWay::Split);
    case RunWay::Split:
      return decide();
  }
}

void RunChoice::decide() {
  const size_t n = static_cast<size_t>(++checks_) * kRunsEach;
  const auto quartile = [&](RunWay way) { return uint64_t{lower_quartile(runs(way), n)}; };
  const uint64_t chosen = quartile(RunWay::ByChoices), split = quartile(RunWay::Split);
  const RunWay faster_split = split < chosen ? RunWay::Split : RunWay::ByChoices;
  mode_ = Mode::Decided;
  way_ =
      std::min(chosen, split) * 100 < quartile(RunWay::Alone) * 97 ? faster_split : RunWay::Alone;
  runs_ = 0;
}

bool take_wanted_split() { return std::exchange(wanted_split_on_thread, false); }
void note_wanted_split() { wanted_split_on_thread = true; }

}  // namespace bough::exec
