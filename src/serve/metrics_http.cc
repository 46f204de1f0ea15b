#include "serve/metrics_http.h"

#include <httplib.h>

namespace bough::serve {

namespace {

using Counter = std::atomic<uint64_t> ModelMetrics::*;
using Histogram = DurationHistogram ModelMetrics::*;

struct CounterFamily {
  const char* name;
  const char* help;
  Counter value;
};

// Triton's names with bough's prefix.
constexpr CounterFamily kCounters[] = {
    {"bough_inference_request_success", "Number of successful inference requests, per model",
     &ModelMetrics::success},
    {"bough_inference_request_failure",
     "Number of failed inference requests (any error after the model was found), per model",
     &ModelMetrics::failure},
    {"bough_inference_exec_count",
     "Number of model executions (a batch of requests run together counts once), per model",
     &ModelMetrics::executions},
    {"bough_inference_request_duration_us",
     "Cumulative end-to-end handling time of successful inference requests, in microseconds",
     &ModelMetrics::request_us},
    {"bough_inference_queue_duration_us",
     "Cumulative time successful inference requests waited for a free session, in microseconds",
     &ModelMetrics::queue_us},
    {"bough_inference_compute_infer_duration_us",
     "Cumulative time successful inference requests spent running the model, in microseconds",
     &ModelMetrics::compute_us},
};

struct HistogramFamily {
  const char* name;
  const char* help;
  Histogram value;
};

constexpr HistogramFamily kHistograms[] = {
    {"bough_inference_queue_histogram_us",
     "Time successful inference requests waited for a free session, in microseconds",
     &ModelMetrics::queue},
    {"bough_inference_compute_infer_histogram_us",
     "Time successful inference requests spent running the model, in microseconds",
     &ModelMetrics::compute},
};

std::string labels(const ServedModel& model) {
  return "model=\"" + escape_label(model.name()) + "\",version=\"" + escape_label(model.version()) +
         "\"";
}

}  // namespace

std::string metrics_text(const ModelMap& models) {
  std::string out;
  for (const CounterFamily& family : kCounters) {
    out += std::string("# HELP ") + family.name + " " + family.help + "\n";
    out += std::string("# TYPE ") + family.name + " counter\n";
    for (const auto& [name, model] : models)
      out += std::string(family.name) + "{" + labels(*model) + "} " +
             std::to_string((model->metrics().*family.value).load(std::memory_order_relaxed)) +
             "\n";
  }
  for (const HistogramFamily& family : kHistograms) {
    out += std::string("# HELP ") + family.name + " " + family.help + "\n";
    out += std::string("# TYPE ") + family.name + " histogram\n";
    for (const auto& [name, model] : models)
      (model->metrics().*family.value).write(out, family.name, labels(*model));
  }
  return out;
}

void add_metrics_route(httplib::Server& server, const ApiState& state) {
  server.Get("/metrics", [&state](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_text(*state.models.all()), "text/plain; version=0.0.4; charset=utf-8");
  });
}

}  // namespace bough::serve
