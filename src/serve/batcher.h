// Dynamic batching: requests to one model whose inputs have the same names, element types and
// shapes except dim 0 are stacked along dim 0 into one run, and the outputs are split back by
// rows. The first request of a batch waits up to `delay_us` for others (or until the batch
// holds `max_batch_size` rows), then for a free session; requests that come meanwhile still
// join, so that under load batches form with no delay at all. A batch whose outputs do not all
// have the batch's rows as dim 0 cannot be split: its requests run one by one, and so do all
// requests after it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>

#include "bough/session.h"
#include "serve/metrics.h"
#include "serve/run_cancel.h"

namespace bough::serve {

struct BatchSettings {
  int max_batch_size = 0;  // rows a batch may hold; 0 or 1: no batching
  int64_t delay_us = 0;    // how long a batch's first request waits for others
};

class Batcher {
 public:
  // Runs inputs on a session, as SessionPool::run: `inputs` is called once the session is
  // held, `times` gets the wait for it and the run, and the run registers with the RunCancel
  // if one is given.
  using Run = std::function<NamedValues(const std::function<const NamedValues&()>& inputs,
                                        RequestTimes&, RunCancel*)>;

  Batcher(BatchSettings settings, Run run);

  // Runs one request, in a batch when it can be, and gives its own outputs; `times` gets its
  // wait (from its arrival to its batch's run) and the batch's run time. A batch's failure is
  // thrown to every request of it. `cancel` stops a request that runs alone; a batch, which
  // others share, runs to its end.
  NamedValues run(const NamedValues& inputs, RequestTimes& times, RunCancel* cancel = nullptr);

 private:
  struct Batch;
  NamedValues run_alone(const NamedValues& inputs, RequestTimes& times, RunCancel* cancel);
  // Runs the batch led by the calling request, and hands every request its outputs or error.
  void run_batch(const std::shared_ptr<Batch>& batch);
  // Closes `batch` to new requests.
  void close(Batch& batch);

  BatchSettings settings_;
  Run run_;
  std::atomic<bool> splits_{true};  // false once a batch's outputs could not be split
  std::mutex mutex_;
  std::list<std::shared_ptr<Batch>> open_;  // batches taking requests; guarded by mutex_
};

}  // namespace bough::serve
