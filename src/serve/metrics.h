// Prometheus metrics per served model, named and shaped after Triton's (nv_inference_* there,
// bough_inference_* here): requests that succeeded and failed, cumulative request, queue and
// compute times, and queue and compute time histograms. Updated with relaxed atomics, so the
// request path takes no lock for them; a scrape reads each number once.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace bough::serve {

// A histogram of durations in microseconds.
class DurationHistogram {
 public:
  // The buckets' upper bounds in microseconds, from 100 µs to 10 s; +Inf follows.
  static constexpr std::array<uint64_t, 14> kBounds{100,    250,     500,     1000,    2500,
                                                    5000,   10000,   25000,   50000,   100000,
                                                    250000, 1000000, 2500000, 10000000};

  void observe(uint64_t us);
  // Appends NAME_bucket{LABELS,le="..."} (cumulative, +Inf last), NAME_sum and NAME_count.
  // The count is the sum of the buckets as read, so it always equals the +Inf bucket.
  void write(std::string& out, const std::string& name, const std::string& labels) const;

 private:
  // One count per bucket, not cumulative (the last is above every bound).
  std::array<std::atomic<uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<uint64_t> sum_{0};
};

// Where the time of one request went, in microseconds.
struct RequestTimes {
  uint64_t queue_us = 0;    // waiting for its batch to fill and a free session of the model
  uint64_t compute_us = 0;  // Session::run
};

struct ModelMetrics {
  std::atomic<uint64_t> success{0};
  std::atomic<uint64_t> failure{0};
  // Runs of the model, as Triton's nv_inference_exec_count: a batch is one.
  std::atomic<uint64_t> executions{0};
  // Cumulative times of the successful requests, as Triton's *_duration_us counters.
  std::atomic<uint64_t> request_us{0};
  std::atomic<uint64_t> queue_us{0};
  std::atomic<uint64_t> compute_us{0};
  DurationHistogram queue;
  DurationHistogram compute;

  void succeeded(const RequestTimes& times, uint64_t request_us);
  void failed() { failure.fetch_add(1, std::memory_order_relaxed); }
};

// Times one inference request of a model from its construction and counts it when it ends: as
// a success with its times if succeeded() was called, as a failure otherwise (an exception).
class RequestTimer {
 public:
  explicit RequestTimer(ModelMetrics& metrics)
      : metrics_(metrics), start_(std::chrono::steady_clock::now()) {}
  ~RequestTimer() {
    if (!done_) metrics_.failed();
  }
  RequestTimer(const RequestTimer&) = delete;
  RequestTimer& operator=(const RequestTimer&) = delete;

  void succeeded();
  RequestTimes times;  // filled by ServedModel::run

 private:
  ModelMetrics& metrics_;
  std::chrono::steady_clock::time_point start_;
  bool done_ = false;
};

// Microseconds from `start` to now.
uint64_t micros_since(std::chrono::steady_clock::time_point start);

// A label value in the text format: backslash, double quote and newline escaped.
std::string escape_label(const std::string& value);

}  // namespace bough::serve
