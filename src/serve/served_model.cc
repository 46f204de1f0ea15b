#include "serve/served_model.h"

#include <chrono>

#include "bough/model.h"
#include "serve/protocol_error.h"

namespace bough::serve {

ServedModel::ServedModel(const ModelSource& source, const SessionOptions& options, int max_waiting)
    : name_(source.name), version_(source.version), max_waiting_(max_waiting) {
  const Model model = Model::load(source.path);
  SessionOptions with_threads = options;
  with_threads.threads = source.config.threads;
  for (int i = 0; i < source.config.instances; ++i) {
    sessions_.push_back(std::make_unique<Session>(model, with_threads));
    free_.push_back(sessions_.back().get());
  }
}

NamedValues ServedModel::run(const NamedValues& inputs, RequestTimes& times) {
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
  // Gives the session back however the run ends.
  struct Return {
    ServedModel* model;
    Session* session;
    ~Return() {
      {
        std::lock_guard lock(model->mutex_);
        model->free_.push_back(session);
      }
      model->freed_.notify_one();
    }
  } give_back{this, session};
  const auto started = std::chrono::steady_clock::now();
  times.queue_us = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(started - queued).count());
  NamedValues outputs = session->run(inputs);
  times.compute_us = micros_since(started);
  return outputs;
}

}  // namespace bough::serve
