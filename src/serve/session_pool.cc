#include "serve/session_pool.h"

#include "bough/error.h"
#include "serve/protocol_error.h"

namespace bough::serve {

SessionPool::SessionPool(const Model& model, const SessionOptions& options, int instances,
                         int max_waiting, std::string name)
    : name_(std::move(name)), max_waiting_(max_waiting) {
  for (int i = 0; i < instances; ++i) {
    sessions_.push_back(std::make_unique<Session>(model, options));
    free_.push_back(sessions_.back().get());
  }
}

NamedValues SessionPool::run(const std::function<const NamedValues&()>& inputs, RequestTimes& times,
                             RunCancel* cancel) {
  const auto queued = std::chrono::steady_clock::now();
  Session* session = nullptr;
  {
    std::unique_lock lock(mutex_);
    if (free_.empty()) {
      if (waiting_ >= max_waiting_)
        throw ProtocolError(kUnavailable, "model '" + name_ +
                                              "' is busy: " + std::to_string(waiting_) +
                                              " requests wait already; try again later");
      ++waiting_;
      freed_.wait(lock, [&] { return !free_.empty(); });
      --waiting_;
    }
    session = free_.back();
    free_.pop_back();
  }
  return run_on(session, queued, inputs, times, cancel);
}

std::optional<NamedValues> SessionPool::try_run(const std::function<const NamedValues&()>& inputs,
                                                RequestTimes& times) {
  const auto queued = std::chrono::steady_clock::now();
  Session* session = nullptr;
  {
    std::lock_guard lock(mutex_);
    // Not ahead of the runs that wait: a session freed for them is theirs.
    if (free_.empty() || waiting_ > 0) return std::nullopt;
    session = free_.back();
    free_.pop_back();
  }
  return run_on(session, queued, inputs, times, nullptr);
}

NamedValues SessionPool::run_on(Session* session, std::chrono::steady_clock::time_point queued,
                                const std::function<const NamedValues&()>& inputs,
                                RequestTimes& times, RunCancel* cancel) {
  // Gives the session back however the run ends.
  struct Return {
    SessionPool* pool;
    Session* session;
    ~Return() {
      {
        std::lock_guard lock(pool->mutex_);
        pool->free_.push_back(session);
      }
      pool->freed_.notify_one();
    }
  } give_back{this, session};
  const auto started = std::chrono::steady_clock::now();
  times.queue_us = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(started - queued).count());
  if (cancel && !cancel->begin(*session))
    fail(ErrorKind::Stopped, "model '" + name_ + "'", "the request was cancelled before its run");
  struct End {
    RunCancel* cancel;
    ~End() {
      if (cancel) cancel->end();
    }
  } end{cancel};
  NamedValues outputs = session->run(inputs());
  times.compute_us = micros_since(started);
  return outputs;
}

}  // namespace bough::serve
