#include "ops/onnx/layout_infer.h"


namespace bough::ops::layout_infer {

std::optional<std::vector<double>> number_values(const InferContext& ctx, size_t input) {
  const Tensor* t = ctx.input_value(input);
  if (t && (t->type() == ElemType::Float || t->type() == ElemType::Double)) {
    std::vector<double> out(static_cast<size_t>(t->numel()));
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = t->type() == ElemType::Float ? static_cast<double>(t->data<float>()[i])
                                            : t->data<double>()[i];
    return out;
  }
  if (auto ints = int_values(ctx, input)) return std::vector<double>(ints->begin(), ints->end());
  return std::nullopt;
}

ir::Dim dim_sum(const std::vector<ir::Dim>& dims) {
  int64_t known = 0;
  const ir::Dim* other = nullptr;
  int others = 0;
  for (const ir::Dim& d : dims) {
    if (d.is_known()) {
      known += d.value;
    } else {
      other = &d;
      ++others;
    }
  }
  if (others == 0) return ir::Dim::known(known);
  if (others == 1 && known == 0) return *other;
  return ir::Dim::unknown();
}

}  // namespace bough::ops::layout_infer
