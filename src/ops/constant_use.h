// What a kernel's factory says of a constant input beyond preparing a form of it
// (BuildContext::constant_input): that the kernel never reads the input itself at run time
// (consume_constant_input), so the plan may drop the original once no other reader needs it
// (exec::Plan::constant_bytes); or that it does after all (keep_constant_input, which wins,
// for a kernel made of parts that report one by one, such as an If's two branches).
//
// The planner collects the reports of the kernel it builds with a ConstantUseScope; outside
// one (a kernel built on its own, ops/evaluate.h) they go nowhere. The scope is per thread
// and nests (a control-flow kernel compiles its subgraphs' kernels while it is built) rather
// than a BuildContext member, to keep it out of ops/registry.h, which most files include.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace bough::ops {

class BuildContext;

enum ConstantUse : uint8_t { kConsumed = 1, kKept = 2 };

class ConstantUseScope {
 public:
  // `use`: per input of the kernel being built (implicit inputs last), the ConstantUse bits
  // its factory reports; zeroed by the caller.
  explicit ConstantUseScope(std::span<uint8_t> use);
  ~ConstantUseScope();
  ConstantUseScope(const ConstantUseScope&) = delete;
  ConstantUseScope& operator=(const ConstantUseScope&) = delete;

  // Adds `bit` to input i's report in the innermost scope, if any.
  static void mark(size_t i, ConstantUse bit);

 private:
  std::span<uint8_t> use_;
  ConstantUseScope* outer_;
};

// Input i of the kernel `ctx` builds is constant and the kernel keeps only a prepared form of
// it. Does nothing for an input that is not constant.
void consume_constant_input(const BuildContext& ctx, size_t i);
// Input i is constant and the kernel reads it at run time.
void keep_constant_input(const BuildContext& ctx, size_t i);

}  // namespace bough::ops
