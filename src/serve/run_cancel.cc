#include "serve/run_cancel.h"

namespace bough::serve {

void RunCancel::cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  if (running_) running_->cancel();
}

bool RunCancel::begin(Session& session) {
  std::lock_guard lock(mutex_);
  if (cancelled_) return false;
  running_ = &session;
  return true;
}

void RunCancel::end() {
  std::lock_guard lock(mutex_);
  running_ = nullptr;
}

}  // namespace bough::serve
