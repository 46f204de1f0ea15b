#include "exec/profiler.h"

namespace bough::exec {

std::atomic<int> Profiler::alive_{0};
thread_local Profiler* Profiler::active_ = nullptr;

Profiler::Profiler(std::vector<StepTiming>& steps) : previous_(active_), steps_(steps) {
  active_ = this;
  alive_.fetch_add(1, std::memory_order_relaxed);
}

Profiler::~Profiler() {
  alive_.fetch_sub(1, std::memory_order_relaxed);
  active_ = previous_;
}

void Profiler::end(const std::string& where, const std::string& op, int64_t start_ns) {
  const int64_t duration = now_ns() - start_ns;
  const int64_t nested = nested_ns_.back();
  nested_ns_.pop_back();
  if (!nested_ns_.empty()) nested_ns_.back() += duration;
  steps_.push_back(
      {&where, &op, start_ns, duration, duration - nested, static_cast<int>(nested_ns_.size())});
}

}  // namespace bough::exec
