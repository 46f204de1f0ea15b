#include "serve/batcher.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace bough::serve {

namespace {

using Clock = std::chrono::steady_clock;

// What requests must share to be stacked, and the rows of one: every input a tensor of rank
// at least 1 (of whole bytes or strings) with the same dim 0 above zero; the key spells the
// names, element types and the other dims. Rows 0 for a request that cannot be batched.
struct Signature {
  std::string key;
  int64_t rows = 0;
};

Signature signature(const NamedValues& inputs) {
  Signature s;
  int64_t rows = -1;
  for (const auto& [name, value] : inputs) {
    if (!value.is_tensor()) return {};
    const Tensor& t = value.tensor();
    if (t.rank() == 0 || is_sub_byte(t.type()) || (rows >= 0 && t.dim(0) != rows)) return {};
    rows = t.dim(0);
    s.key += name;
    s.key += '\0';
    s.key += std::to_string(static_cast<int>(t.type()));
    for (size_t d = 1; d < t.rank(); ++d) s.key += "," + std::to_string(t.dim(d));
    s.key += '\0';
  }
  if (rows <= 0) return {};
  s.rows = rows;
  return s;
}

// The tensors `parts` (of one element type, shapes equal but for dim 0) one after another
// along dim 0, `rows` in all.
Tensor stack(const std::vector<const Tensor*>& parts, int64_t rows) {
  const Tensor& first = *parts.front();
  Dims shape = first.shape();
  shape[0] = rows;
  Tensor out(first.type(), shape);
  if (first.type() == ElemType::String) {
    std::string* to = out.strings();
    for (const Tensor* part : parts) to = std::copy_n(part->strings(), part->numel(), to);
  } else {
    auto* to = static_cast<uint8_t*>(out.raw());
    for (const Tensor* part : parts) {
      std::memcpy(to, part->raw(), part->nbytes());
      to += part->nbytes();
    }
  }
  return out;
}

// Whether every output is a tensor with `rows` as its dim 0, so that it splits by rows.
bool splits(const NamedValues& outputs, int64_t rows) {
  return std::all_of(outputs.begin(), outputs.end(), [rows](const auto& output) {
    const Value& v = output.second;
    return v.is_tensor() && v.tensor().rank() > 0 && v.tensor().dim(0) == rows &&
           !is_sub_byte(v.tensor().type());
  });
}

// Rows [first, first + count) of every output, as views of the batch's buffers.
NamedValues rows_of(const NamedValues& outputs, int64_t first, int64_t count, int64_t rows) {
  NamedValues part;
  part.reserve(outputs.size());
  for (const auto& [name, value] : outputs) {
    const Tensor& t = value.tensor();
    const int64_t per_row = rows == 0 ? 0 : t.numel() / rows;
    Dims shape = t.shape();
    shape[0] = count;
    part.emplace_back(name, t.view(first * per_row, shape));
  }
  return part;
}

}  // namespace

struct Batcher::Batch {
  // One request of the batch: its inputs, and what it gets back.
  struct Request {
    const NamedValues* inputs;
    int64_t rows;
    Clock::time_point arrived;
    NamedValues outputs;
    RequestTimes times;
    std::exception_ptr error;
  };
  std::string key;
  int64_t rows = 0;
  bool open = true;  // guarded by Batcher::mutex_, as are the members below
  bool done = false;
  std::vector<Request*> requests;   // the first is the leader, which runs the batch
  std::condition_variable changed;  // full, closed or done
};

Batcher::Batcher(BatchSettings settings, Run run) : settings_(settings), run_(std::move(run)) {}

NamedValues Batcher::run_alone(const NamedValues& inputs, RequestTimes& times, RunCancel* cancel) {
  return run_([&inputs]() -> const NamedValues& { return inputs; }, times, cancel);
}

void Batcher::close(Batch& batch) {
  if (!batch.open) return;
  batch.open = false;
  open_.remove_if([&batch](const std::shared_ptr<Batch>& b) { return b.get() == &batch; });
}

NamedValues Batcher::run(const NamedValues& inputs, RequestTimes& times, RunCancel* cancel) {
  if (settings_.max_batch_size <= 1 || !splits_.load(std::memory_order_relaxed))
    return run_alone(inputs, times, cancel);
  const Signature sig = signature(inputs);
  if (sig.rows == 0 || sig.rows > settings_.max_batch_size) return run_alone(inputs, times, cancel);
  Batch::Request request{&inputs, sig.rows, Clock::now(), {}, {}, {}};
  std::unique_lock lock(mutex_);
  const auto joinable = std::find_if(open_.begin(), open_.end(), [&](const auto& b) {
    return b->key == sig.key && b->rows + sig.rows <= settings_.max_batch_size;
  });
  if (joinable != open_.end()) {
    const std::shared_ptr<Batch> batch = *joinable;
    batch->requests.push_back(&request);
    batch->rows += sig.rows;
    if (batch->rows == settings_.max_batch_size) close(*batch);
    batch->changed.notify_all();
    batch->changed.wait(lock, [&] { return batch->done; });
  } else {
    auto batch = std::make_shared<Batch>();
    batch->key = sig.key;
    batch->rows = sig.rows;
    batch->requests.push_back(&request);
    if (batch->rows < settings_.max_batch_size) {
      open_.push_back(batch);
      // With no delay the request goes straight on to wait for a session (its batch still
      // open to others meanwhile): no timed wait, which even when already past costs a
      // futex call and, on a busy machine, a trip through the scheduler's queue.
      if (settings_.delay_us > 0)
        batch->changed.wait_until(lock,
                                  request.arrived + std::chrono::microseconds(settings_.delay_us),
                                  [&] { return !batch->open; });
    } else {
      batch->open = false;
    }
    lock.unlock();
    run_batch(batch);
  }
  times = request.times;
  if (request.error) std::rethrow_exception(request.error);
  return std::move(request.outputs);
}

void Batcher::run_batch(const std::shared_ptr<Batch>& batch) {
  // Filled once a session is free: the batch closes then, and its inputs are stacked.
  std::vector<Batch::Request*> requests;
  NamedValues stacked;
  Clock::time_point started;
  const auto gather = [&]() -> const NamedValues& {
    {
      std::lock_guard lock(mutex_);
      close(*batch);
      requests = batch->requests;
    }
    started = Clock::now();
    if (requests.size() == 1) return *requests.front()->inputs;
    const NamedValues& first = *requests.front()->inputs;
    for (size_t i = 0; i < first.size(); ++i) {
      std::vector<const Tensor*> parts;
      for (const Batch::Request* r : requests) parts.push_back(&(*r->inputs)[i].second.tensor());
      stacked.emplace_back(first[i].first, stack(parts, batch->rows));
    }
    return stacked;
  };
  RequestTimes run_times;
  NamedValues outputs;
  std::exception_ptr error;
  try {
    outputs = run_(gather, run_times, nullptr);
  } catch (...) {
    error = std::current_exception();
  }
  if (requests.empty()) {  // the run failed before it had a session: close the batch now
    std::lock_guard lock(mutex_);
    close(*batch);
    requests = batch->requests;
    started = Clock::now();
  }
  const bool alone = requests.size() == 1;
  if (!error && !alone && !splits(outputs, batch->rows)) {
    splits_.store(false, std::memory_order_relaxed);
    for (Batch::Request* r : requests) {
      try {
        r->outputs = run_alone(*r->inputs, r->times, nullptr);
      } catch (...) {
        r->error = std::current_exception();
      }
    }
  } else {
    int64_t first = 0;
    for (Batch::Request* r : requests) {
      r->times.queue_us = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(started - r->arrived).count());
      r->times.compute_us = run_times.compute_us;
      if (error)
        r->error = error;
      else
        r->outputs = alone ? std::move(outputs) : rows_of(outputs, first, r->rows, batch->rows);
      first += r->rows;
    }
  }
  std::lock_guard lock(mutex_);
  batch->done = true;
  batch->changed.notify_all();
}

}  // namespace bough::serve
