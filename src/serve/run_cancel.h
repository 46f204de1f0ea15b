// Lets another thread stop one request's run, as when its client goes away. While the run goes
// on its session is registered here, and cancel() stops it (Session::cancel: ErrorKind::Stopped
// at its next node or iteration); a request cancelled before its run begins does not run.
#pragma once

#include <mutex>

#include "bough/session.h"

namespace bough::serve {

class RunCancel {
 public:
  void cancel();
  // Registers `session` as running this request: false, registering nothing, when the request
  // was cancelled already.
  bool begin(Session& session);
  // The run has ended; a later cancel() does nothing.
  void end();

 private:
  // A cancel() that comes between begin() and the start of Session::run is lost (a run clears
  // its session's cancel flag when it starts): that run goes to its end.
  std::mutex mutex_;
  Session* running_ = nullptr;  // guarded by mutex_
  bool cancelled_ = false;      // guarded by mutex_
};

}  // namespace bough::serve
