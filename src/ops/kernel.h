// What a compiled step runs: a Kernel, built once per node at plan time, reading its inputs
// from and writing its outputs to slots of the current frame.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>

#include "bough/error.h"
#include "bough/value.h"

namespace bough::util {
class ThreadPool;
}

namespace bough::ops {

// Per-run context shared by every frame of one Session::run call.
struct RunContext {
  util::ThreadPool* pool = nullptr;
  // Set from another thread to stop the run; null when nothing can cancel it.
  const std::atomic<bool>* cancel = nullptr;
  // steady_clock time (ns since its epoch) by which the run must end; 0 for no limit.
  int64_t deadline_ns = 0;
  // Each node runs under its own thread choice (exec/thread_choice.h); false: every node
  // runs as the thread's policy says (the session's choice for the whole run).
  bool node_choices = true;
  // Whether either limit applies: the plan then checks them before every step.
  bool limited() const { return cancel || deadline_ns; }
};

// The inputs and outputs of one step. `slots` maps each slot to where its value lives (the
// frame, or a value borrowed from the caller). Slot -1 is an omitted optional input/output.
class KernelIO {
 public:
  KernelIO(RunContext& ctx, Value* const* slots, std::span<const int32_t> in,
           std::span<const int32_t> out)
      : ctx_(ctx), slots_(slots), in_(in), out_(out) {}

  size_t num_inputs() const { return in_.size(); }
  size_t num_outputs() const { return out_.size(); }
  bool has_input(size_t i) const { return i < in_.size() && in_[i] >= 0; }
  bool has_output(size_t i) const { return i < out_.size() && out_[i] >= 0; }

  // The value of input i; the empty optional for an omitted input.
  const Value& value(size_t i) const { return has_input(i) ? *slots_[in_[i]] : none_; }
  // Input i as a tensor; a clear error when it is something else.
  const Tensor& input(size_t i) const {
    const Value& v = value(i);
    if (!v.is_tensor()) [[unlikely]]
      not_a_tensor(i, v);
    return v.tensor();
  }
  void set_output(size_t i, Value v) {
    if (has_output(i)) *slots_[out_[i]] = std::move(v);
  }
  void set_output(size_t i, Tensor&& t) {
    if (has_output(i)) *slots_[out_[i]] = std::move(t);
  }
  // Where output i goes; only for an output that is present (has_output).
  Value& output(size_t i) { return *slots_[out_[i]]; }
  // Output i as a tensor for the kernel to overwrite: call ir::reinit on it, which
  // reuses the buffer a previous run left there. An omitted output gets a scratch tensor.
  Tensor& output_tensor(size_t i) {
    if (!has_output(i)) [[unlikely]]
      return scratch();
    return output(i).as_tensor();
  }
  RunContext& context() { return ctx_; }
  util::ThreadPool& pool() { return *ctx_.pool; }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void not_a_tensor(size_t i, const Value& v) {
    fail(ErrorKind::BadInput, "",
         "input " + std::to_string(i) + " must be a tensor, got " + describe(v));
  }
  static Tensor& scratch() {
    static thread_local Tensor t;
    return t;
  }
  static inline const Value none_{};
  RunContext& ctx_;
  Value* const* slots_;
  std::span<const int32_t> in_;
  std::span<const int32_t> out_;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual void run(KernelIO& io) = 0;
};

}  // namespace bough::ops
