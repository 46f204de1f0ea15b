// CumProd: running products along the axis given by input 1 (see cumulative.h).
#include "ops/onnx/cumulative.h"

namespace bough::ops {

const OpDef& def_CumProd() {
  static const OpDef def{"", "CumProd", {26}, 2, 2, 1, 1, make_cumulative<Total::Product>};
  return def;
}

}  // namespace bough::ops
