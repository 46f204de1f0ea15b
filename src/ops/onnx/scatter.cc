// Scatter (deprecated from opset 11): ScatterElements under its old name, without
// reduction.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace scatter_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  // since < 16: no reduction attribute is read
  return find_op("", "ScatterElements")->make(ctx);
}
void infer(InferContext& ctx) { infer_same_as_first(ctx); }

constexpr SignatureText kRows[] = {
    {9,
     "data: T, indices: Tind, updates: T -> output: T; T = all, Tind = int32 "
     "int64; axis: int = 0"},
    {11,
     "data: T, indices: Tind, updates: T -> output: T; T = all, Tind = int32 "
     "int64; axis: int = 0"}};

}  // namespace scatter_op
}  // namespace

OpDef def_Scatter() {
  using namespace scatter_op;
  return def_from_rows("", "Scatter", make, infer, kRows);
}

}  // namespace bough::ops
