// CumSum: running sums along the axis given by input 1 (see cumulative.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/cumulative.h"
#include "ops/shape_infer.h"

namespace bough::ops {

OpDef def_CumSum() {
  static constexpr SignatureText kRows[] = {
      {11,
       "x: T, axis: T2 -> y: T; T = float double int32 int64 uint32 uint64, T2 "
       "= int32 int64; exclusive: int = 0, reverse: int = 0"},
      {14,
       "x: T, axis: T2 -> y: T; T = floats bfloat16 int32 int64 uint32 uint64, "
       "T2 = int32 int64; exclusive: int = 0, reverse: int = 0"}};
  return def_from_rows("", "CumSum", make_cumulative<Total::Sum>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
