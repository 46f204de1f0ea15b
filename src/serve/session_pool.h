// A model's sessions: a Session runs one request at a time, so a model keeps `instances` of
// them, sharing the loaded model, and lends one to each run; a run that finds them all busy
// waits for one, and past `max_waiting` waiting runs it is turned away (503), so that a slow
// model cannot hold every HTTP thread and block the other models.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bough/model.h"
#include "bough/session.h"
#include "serve/metrics.h"
#include "serve/run_cancel.h"

namespace bough::serve {

class SessionPool {
 public:
  // `instances` sessions of `model`; `name` is the model's, for the busy error.
  SessionPool(const Model& model, const SessionOptions& options, int instances, int max_waiting,
              std::string name);

  // The first session, for the model's inputs and outputs.
  const Session& front() const { return *sessions_.front(); }

  // Waits for a free session, then runs it on what `inputs` gives (called once the session
  // is held, so a caller may still gather inputs while it waits); records in `times` how long
  // it waited and ran. ProtocolError(503) when `max_waiting` runs wait already. With a
  // `cancel`, the run registers there (RunCancel); one cancelled before it begins fails with
  // ErrorKind::Stopped.
  NamedValues run(const std::function<const NamedValues&()>& inputs, RequestTimes& times,
                  RunCancel* cancel = nullptr);
  // Runs as run() when a session is free now and no run waits for one; none, without
  // waiting, otherwise.
  std::optional<NamedValues> try_run(const std::function<const NamedValues&()>& inputs,
                                     RequestTimes& times);

 private:
  // Runs `session`, taken from free_ at `queued`, and gives it back however the run ends.
  NamedValues run_on(Session* session, std::chrono::steady_clock::time_point queued,
                     const std::function<const NamedValues&()>& inputs, RequestTimes& times,
                     RunCancel* cancel);

  std::string name_;
  int max_waiting_;
  std::vector<std::unique_ptr<Session>> sessions_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<Session*> free_;  // guarded by mutex_
  int waiting_ = 0;             // guarded by mutex_
};

}  // namespace bough::serve
