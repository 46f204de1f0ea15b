// CumProd: running products along the axis given by input 1 (see cumulative.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/cumulative.h"
#include "ops/shape_infer.h"

namespace bough::ops {

OpDef def_CumProd() {
  static constexpr SignatureText kRows[] = {
      {26,
       "x: T, axis: T2 -> y: T; T = floats bfloat16 int32 int64 uint32 uint64, "
       "T2 = int32 int64; exclusive: int = 0, reverse: int = 0"}};
  return def_from_rows("", "CumProd", make_cumulative<Total::Product>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
