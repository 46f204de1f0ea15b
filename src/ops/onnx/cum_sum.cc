// CumSum: running sums along the axis given by input 1 (see cumulative.h).
#include "ops/onnx/cumulative.h"

namespace bough::ops {

const OpDef& def_CumSum() {
  static const OpDef def{"", "CumSum", {11, 14}, 2, 2, 1, 1, make_cumulative<Total::Sum>};
  return def;
}

}  // namespace bough::ops
