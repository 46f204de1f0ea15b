#include "exec/thread_choice.h"

#include <algorithm>
#include <limits>

namespace bough::exec {

namespace {
// A split is kept only when its fastest run beats the calling thread's alone by 5 %: below
// that the gain is within the noise of a few runs, and the time a split costs the nodes
// around it is not all inside the node's own.
bool split_pays(int64_t best_split, int64_t best_serial) {
  return best_split * 20 < best_serial * 19;
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
  if (mode_ != Mode::Probe && (size > 2 * size_ || 2 * size < size_)) restart(size);
  switch (mode_) {
    case Mode::Probe:
      size_ = size;
      timed = true;
      return {};
    case Mode::Measure:
      timed = true;
      return {.serial = runs_ % 2 == 0};
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
    mode_ = wanted_split ? Mode::Measure : Mode::Free;
    runs_ = 0;
    best_serial_ = best_split_ = std::numeric_limits<int64_t>::max();
    return;
  }
  if (mode_ != Mode::Measure) return;
  int64_t& best = runs_ % 2 == 0 ? best_serial_ : best_split_;
  best = std::min(best, ns);
  if (++runs_ == 2 * kRunsEach)
    mode_ = split_pays(best_split_, best_serial_) ? Mode::Split : Mode::Serial;
}

}  // namespace bough::exec
