// Log: natural logarithm, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace log_op {
struct LogFn : FastMapFn<kernels::FastFn::Log, kernels::kLogWork> {
  static constexpr char kName[] = "Log";
};
}  // namespace log_op
}  // namespace

OpDef def_Log() { return float_map_def<log_op::LogFn>(kMapRowsSince1); }

}  // namespace bough::ops
