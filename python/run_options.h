// ONNX Runtime's RunOptions.terminate over Session::cancel. Setting `terminate` stops every run
// using these options at its next node; a run starting while it is set fails at once, as in
// ONNX Runtime. Python's bough.RunOptions adds the fields bough has no use for.
#pragma once

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"

namespace bough::python {

class RunOptions {
 public:
  bool terminate() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return terminate_;
  }
  void set_terminate(bool terminate) {
    std::lock_guard<std::mutex> lock(mutex_);
    terminate_ = terminate;
    if (terminate)
      for (Session* s : running_) s->cancel();
  }

  // Around one run of `session`, which must be the only run in progress on it (cancel stops
  // whatever it is running). Throws ErrorKind::Stopped, naming the model at `path`, when
  // terminate is set as the run starts or was set before it ended: a cancel arriving before
  // the session began its run would be lost, so the flag is looked at again at the end.
  class Scope {
   public:
    Scope(RunOptions* options, Session& session, const std::string& path)
        : options_(options), session_(session), path_(path) {
      if (!options_) return;
      std::lock_guard<std::mutex> lock(options_->mutex_);
      if (options_->terminate_) stopped();
      options_->running_.push_back(&session_);
    }
    // Leaves, throwing when terminate was set during the run.
    void finish() {
      if (leave()) stopped();
    }
    ~Scope() { leave(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    // Returns whether terminate is set; the first call takes the session off the list.
    bool leave() {
      if (!options_) return false;
      std::lock_guard<std::mutex> lock(options_->mutex_);
      std::vector<Session*>& running = options_->running_;
      if (auto it = std::find(running.begin(), running.end(), &session_); it != running.end())
        running.erase(it);
      return options_->terminate_;
    }
    [[noreturn]] void stopped() const {
      fail(ErrorKind::Stopped, path_, "the run was terminated (RunOptions.terminate is set)");
    }
    RunOptions* options_;
    Session& session_;
    const std::string& path_;
  };

 private:
  mutable std::mutex mutex_;
  bool terminate_ = false;
  std::vector<Session*> running_;  // the sessions running with these options now
};

}  // namespace bough::python
