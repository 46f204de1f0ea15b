// A loaded model version: its sessions (a SessionPool), the Batcher that stacks requests
// when the model's config asks for dynamic batching, and its metrics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bough/session.h"
#include "serve/batcher.h"
#include "serve/metrics.h"
#include "serve/model_repository.h"
#include "serve/session_pool.h"

namespace bough::serve {

class ServedModel {
 public:
  // Loads the model and builds its sessions (throws bough::Error on a bad model).
  ServedModel(const ModelSource& source, const SessionOptions& options, int max_waiting);

  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  // The inputs and outputs, as the sessions see them.
  const std::vector<ValueInfo>& inputs() const { return pool_->front().inputs(); }
  const std::vector<ValueInfo>& outputs() const { return pool_->front().outputs(); }
  // Runs one request, batched with others when the model batches, on a free session
  // (waiting for one); records in `times` how long it waited and ran. ProtocolError(503)
  // when too many runs wait already. `cancel` can stop it unless it runs in a batch.
  NamedValues run(const NamedValues& inputs, RequestTimes& times, RunCancel* cancel = nullptr) {
    return batcher_->run(inputs, times, cancel);
  }
  // Runs one request now, as run(), when the model does not batch and a session is free;
  // none, without waiting, otherwise.
  std::optional<NamedValues> try_run(const NamedValues& inputs, RequestTimes& times);
  ModelMetrics& metrics() { return metrics_; }
  const ModelMetrics& metrics() const { return metrics_; }

 private:
  std::string name_;
  std::string version_;
  ModelMetrics metrics_;
  bool batches_ = false;
  std::unique_ptr<SessionPool> pool_;
  std::unique_ptr<Batcher> batcher_;

  // Counts a run as it starts on a session, a batch once.
  void count_run() { metrics_.executions.fetch_add(1, std::memory_order_relaxed); }
};

}  // namespace bough::serve
