// Runs a test body once on each vector target this CPU runs among those compiled in:
// Highway's dynamic dispatch then picks that target, so each compiled copy of a kernel is
// checked, not only the best one. The target's name is in failure messages; the normal
// choice is restored after.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>

namespace bough::test {

// fn() on each target in turn, stopping at the first fatal failure.
template <typename Fn>
void on_every_target(Fn fn) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    fn();
    if (::testing::Test::HasFatalFailure()) break;
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace bough::test
