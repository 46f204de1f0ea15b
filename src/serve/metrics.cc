#include "serve/metrics.h"

namespace bough::serve {

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

uint64_t micros_since(std::chrono::steady_clock::time_point start) {
  const auto elapsed = std::chrono::steady_clock::now() - start;
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count());
}

std::string escape_label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"')
      out += {'\\', c};
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

void DurationHistogram::observe(uint64_t us) {
  size_t bucket = 0;
  while (bucket < kBounds.size() && us > kBounds[bucket]) ++bucket;
  counts_[bucket].fetch_add(1, kRelaxed);
  sum_.fetch_add(us, kRelaxed);
}

void DurationHistogram::write(std::string& out, const std::string& name,
                              const std::string& labels) const {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    cumulative += counts_[i].load(kRelaxed);
    const std::string le = i < kBounds.size() ? std::to_string(kBounds[i]) : "+Inf";
    out += name + "_bucket{" + labels + ",le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += name + "_sum{" + labels + "} " + std::to_string(sum_.load(kRelaxed)) + "\n";
  out += name + "_count{" + labels + "} " + std::to_string(cumulative) + "\n";
}

void ModelMetrics::succeeded(const RequestTimes& times, uint64_t request) {
  success.fetch_add(1, kRelaxed);
  request_us.fetch_add(request, kRelaxed);
  queue_us.fetch_add(times.queue_us, kRelaxed);
  compute_us.fetch_add(times.compute_us, kRelaxed);
  queue.observe(times.queue_us);
  compute.observe(times.compute_us);
}

void RequestTimer::succeeded() {
  done_ = true;
  metrics_.succeeded(times, micros_since(start_));
}

}  // namespace bough::serve
