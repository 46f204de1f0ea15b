#include "ops/constant_use.h"

#include "ops/registry.h"

namespace bough::ops {

namespace {
thread_local ConstantUseScope* innermost = nullptr;
}  // namespace

ConstantUseScope::ConstantUseScope(std::span<uint8_t> use) : use_(use), outer_(innermost) {
  innermost = this;
}

ConstantUseScope::~ConstantUseScope() { innermost = outer_; }

void ConstantUseScope::mark(size_t i, ConstantUse bit) {
  if (innermost && i < innermost->use_.size()) innermost->use_[i] |= bit;
}

void consume_constant_input(const BuildContext& ctx, size_t i) {
  if (ctx.constant_input(i)) ConstantUseScope::mark(i, kConsumed);
}

void keep_constant_input(const BuildContext& ctx, size_t i) {
  if (ctx.constant_input(i)) ConstantUseScope::mark(i, kKept);
}

}  // namespace bough::ops
