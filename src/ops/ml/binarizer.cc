// ai.onnx.ml Binarizer: 1 where x > threshold, else 0, in x's type.
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const double threshold = ctx.attr_float("threshold", 0.0f);
  return make_numeric_map("Binarizer", [threshold](auto v) {
    return static_cast<double>(v) > threshold ? decltype(v)(1) : decltype(v)(0);
  });
}
}  // namespace

OpDef def_MlBinarizer() {
  static constexpr SignatureText kRows[] = {
      {1, "X: T -> Y: T; T = float double int32 int64; threshold: float = 0.0"}};
  return def_from_rows("ai.onnx.ml", "Binarizer", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
