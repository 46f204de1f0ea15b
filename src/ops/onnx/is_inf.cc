// IsInf: true where the element is +inf (detect_positive, default 1) or -inf
// (detect_negative, default 1).
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/float_test.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace is_inf_op {
class IsInf : public Kernel {
 public:
  IsInf(bool positive, bool negative) : positive_(positive), negative_(negative) {}

  void run(KernelIO& io) override {
    const bool pos = positive_, neg = negative_;
    io.set_output(0, float_test(io.input(0), io.pool(), "IsInf", [pos, neg](auto v) {
                    return std::isinf(v) && (v > 0 ? pos : neg);
                  }));
  }

 private:
  bool positive_, negative_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<IsInf>(ctx.attr_int("detect_positive", 1) != 0,
                                 ctx.attr_int("detect_negative", 1) != 0);
}
constexpr SignatureText kRows[] = {
    {10,
     "X: T1 -> Y: T2; T1 = float double, T2 = bool; detect_negative: int = "
     "1, detect_positive: int = 1"},
    {20,
     "X: T1 -> Y: T2; T1 = floats bfloat16 float8s, T2 = bool; "
     "detect_negative: int = 1, detect_positive: int = 1"}};

}  // namespace is_inf_op
}  // namespace

OpDef def_IsInf() {
  using namespace is_inf_op;
  return def_from_rows("", "IsInf", make, infer_float_test, kRows);
}

}  // namespace bough::ops
