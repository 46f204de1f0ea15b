// Per-node timings of runs (`bough bench --profile`, Session::run_profiled). While a
// Profiler lives, the plans that run on its thread time each step and record it; nested
// plans (branches and bodies) run on the same thread, so their steps are recorded too, one
// level deeper. Without a Profiler, a plan pays one relaxed atomic load per run.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bough::exec {

struct StepTiming {
  const std::string* where;  // the node's place in errors ("model.onnx: main/If \"g\"/...")
  const std::string* op;     // its operator
  int64_t start_ns;          // steady_clock
  int64_t duration_ns;       // the whole step, its nested plans' steps included
  int64_t self_ns;           // the step without the steps of its nested plans
  int depth;                 // 0 for the outermost plan's steps, 1 for theirs, ...
};

class Profiler {
 public:
  // Starts recording this thread's steps into `steps` (appended), until destroyed.
  explicit Profiler(std::vector<StepTiming>& steps);
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
  // After a step threw: drops what begin() opened.
  void abandon() { nested_ns_.pop_back(); }

 private:
  static std::atomic<int> alive_;  // Profilers alive on any thread
  static thread_local Profiler* active_;
  Profiler* previous_;
  std::vector<StepTiming>& steps_;
  std::vector<int64_t> nested_ns_;  // per step being run, innermost last: its nested steps' time
};

}  // namespace bough::exec
