// Log: natural logarithm, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace log_op {
struct LogFn {
  static constexpr char kName[] = "Log";
  static constexpr kernels::FastFn kFast = kernels::FastFn::Log;
  static constexpr int64_t kWork = kernels::kLogWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_log(v);
  }
};
}  // namespace log_op
}  // namespace

const OpDef& def_Log() {
  static const OpDef def = float_map_def<log_op::LogFn>(kMapRowsSince1);
  return def;
}

}  // namespace bough::ops
