#include "exec/operators.h"

#include <mutex>

#include "ops/registry.h"

namespace bough::ops {
#define BOUGH_OP(name) OpDef def_##name();
#include "exec/control/op_list.inc"
#undef BOUGH_OP
}  // namespace bough::ops

namespace bough::exec {

void register_operators() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Made once and kept for the process: the registry refers to them.
    static const ops::OpDef defs[] = {
#define BOUGH_OP(name) ops::def_##name(),
#include "exec/control/op_list.inc"
#undef BOUGH_OP
    };
    ops::register_ops(defs);
  });
}

}  // namespace bough::exec
