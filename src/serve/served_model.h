// A loaded model version and its sessions: a Session runs one request at a time, so a model
// keeps `instances` of them and lends one to each request; a request that finds them all busy
// waits for one, and past `max_waiting` waiting requests it is turned away (503), so that a
// slow model cannot hold every HTTP thread and block the other models.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bough/session.h"
#include "serve/metrics.h"
#include "serve/model_repository.h"

namespace bough::serve {

class ServedModel {
 public:
  // Loads the model and builds its sessions (throws bough::Error on a bad model).
  ServedModel(const ModelSource& source, const SessionOptions& options, int max_waiting);

  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  // The inputs and outputs, as the sessions see them.
  const std::vector<ValueInfo>& inputs() const { return sessions_.front()->inputs(); }
  const std::vector<ValueInfo>& outputs() const { return sessions_.front()->outputs(); }
  // Runs one request on a free session (waiting for one), and records in `times` how long it
  // waited and ran; ProtocolError(503) when too many requests wait already.
  NamedValues run(const NamedValues& inputs, RequestTimes& times);
  ModelMetrics& metrics() { return metrics_; }
  const ModelMetrics& metrics() const { return metrics_; }

 private:
  std::string name_;
  std::string version_;
  int max_waiting_;
  ModelMetrics metrics_;
  std::vector<std::unique_ptr<Session>> sessions_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<Session*> free_;  // guarded by mutex_
  int waiting_ = 0;             // guarded by mutex_
};

}  // namespace bough::serve
