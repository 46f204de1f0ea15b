#include "exec/profiler.h"

namespace bough::exec {

std::atomic<int> Profiler::alive_{0};
thread_local Profiler* Profiler::active_ = nullptr;

Profiler::Profiler(ProfileRecords& records) : previous_(active_), records_(records) {
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
  records_.steps.push_back({&where, &op, start_ns, duration, duration - nested,
                            static_cast<int>(nested_ns_.size()), records_.tensors.size(), 0, 0});
}

void Profiler::add_tensor(bool output, bool constant, ElemType elem, std::span<const int64_t> dims,
                          int64_t bytes) {
  StepTiming& step = records_.steps.back();
  ++(output ? step.n_outputs : step.n_inputs);
  records_.tensors.push_back(
      {elem, constant, static_cast<uint32_t>(dims.size()), records_.dims.size(), bytes});
  records_.dims.insert(records_.dims.end(), dims.begin(), dims.end());
}

}  // namespace bough::exec
