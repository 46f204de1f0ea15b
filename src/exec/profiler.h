// Per-node timings of runs (`bough bench --profile`, Session::run_profiled). While a
// Profiler lives, the plans that run on its thread time each step and record it; nested
// plans (branches and bodies) run on the same thread, so their steps are recorded too, one
// level deeper. With each step go the tensors it read and wrote (element type, shape,
// bytes), as ONNX Runtime's profiler records them. Without a Profiler, a plan pays one
// relaxed atomic load per run.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bough/tensor.h"

namespace bough::exec {

// A tensor a step read (one of its own inputs, not a capture) or wrote.
struct TensorRecord {
  ElemType elem;
  bool constant;  // an input that is one of the plan's constants (ONNX Runtime's parameter)
  uint32_t rank;
  size_t dims_at;  // into ProfileRecords::dims
  int64_t bytes;
};

struct StepTiming {
  const std::string* where;  // the node's place in errors ("model.onnx: main/If \"g\"/...")
  const std::string* op;     // its operator
  int64_t start_ns;          // steady_clock
  int64_t duration_ns;       // the whole step, its nested plans' steps included
  int64_t self_ns;           // the step without the steps of its nested plans
  int depth;                 // 0 for the outermost plan's steps, 1 for theirs, ...
  size_t tensors_at;         // its inputs, then its outputs, in ProfileRecords::tensors
  uint32_t n_inputs, n_outputs;
};

// What a Profiler records. Its owner keeps it from run to run, so that recording allocates
// nothing once it has grown.
struct ProfileRecords {
  std::vector<StepTiming> steps;
  std::vector<TensorRecord> tensors;
  std::vector<int64_t> dims;
  void clear() {
    steps.clear();
    tensors.clear();
    dims.clear();
  }
};

class Profiler {
 public:
  // Starts recording this thread's steps into `records` (appended), until destroyed.
  explicit Profiler(ProfileRecords& records);
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  // This thread's Profiler, or null: what Plan::run asks before each run.
  static Profiler* active() { return alive_.load(std::memory_order_relaxed) ? active_ : nullptr; }

  static int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // Around one step: begin() before its kernel runs, end() after, with the same start.
  void begin() { nested_ns_.push_back(0); }
  void end(const std::string& where, const std::string& op, int64_t start_ns);
  // After end(): a tensor the step it recorded read (inputs first, in order) or wrote.
  void add_tensor(bool output, bool constant, ElemType elem, std::span<const int64_t> dims,
                  int64_t bytes);
  // After a step threw: drops what begin() opened.
  void abandon() { nested_ns_.pop_back(); }

 private:
  static std::atomic<int> alive_;  // Profilers alive on any thread
  static thread_local Profiler* active_;
  Profiler* previous_;
  ProfileRecords& records_;
  std::vector<int64_t> nested_ns_;  // per step being run, innermost last: its nested steps' time
};

}  // namespace bough::exec
