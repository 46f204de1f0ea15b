#include "exec/test_data_legacy.h"

#include <cstring>

#include "ir/clone.h"
#include "ir/float_formats.h"

namespace bough {

bool is_bfloat16_bits(const Value& v, const ir::Type& declared) {
  return declared.kind == ir::Type::Kind::Tensor && declared.elem == ElemType::BFloat16 &&
         v.is_tensor() && v.tensor().type() == ElemType::UInt16;
}

Value bfloat16_from_bits(const Value& v) {
  const Tensor& bits = v.tensor();
  Tensor t(ElemType::BFloat16, bits.shape());
  if (bits.nbytes() > 0) std::memcpy(t.raw(), bits.raw(), bits.nbytes());
  return t;
}

bool contradicts_declared_shape(const Tensor& t, const ir::Type& type) {
  if (!type.shape.rank_known) return false;
  if (type.shape.dims.size() != t.rank()) return true;
  for (size_t i = 0; i < t.rank(); ++i) {
    const ir::Dim& d = type.shape.dims[i];
    if (d.is_known() && d.value != t.dim(i)) return true;
  }
  return false;
}

std::shared_ptr<ir::Model> without_input_shapes(const ir::Model& model,
                                                const std::set<std::string>& inputs) {
  std::shared_ptr<ir::Model> copy = ir::clone_model(model);
  for (ir::Edge* v : copy->graph->inputs)
    if (inputs.count(v->name)) v->type.shape = ir::Shape::unknown_rank();
  return copy;
}

std::string compare_truncated_bfloat16(const Tensor& expected, const Tensor& actual) {
  if (actual.type() != ElemType::BFloat16)
    return "element type " + std::string(elem_name(actual.type())) + ", expected bfloat16";
  if (actual.shape() != expected.shape()) return "shape differs from the expected one";
  const auto* e = static_cast<const uint16_t*>(expected.raw());
  const auto* a = static_cast<const uint16_t*>(actual.raw());
  for (int64_t i = 0; i < expected.numel(); ++i) {
    const float ef = bfloat16_to_float(e[i]), af = bfloat16_to_float(a[i]);
    if (ef != ef && af != af) continue;  // NaN matches NaN, whatever its payload
    // Sign and magnitude: one step further from zero is the next bit pattern, whatever
    // the sign, and truncation never crosses into the infinities' or NaNs' patterns.
    if (a[i] == e[i] || (a[i] == e[i] + 1 && (e[i] & 0x7f80) != 0x7f80)) continue;
    return "element " + std::to_string(i) + " is " + std::to_string(af) + ", expected " +
           std::to_string(ef) +
           " (truncated from float32: equal or one bfloat16 step away "
           "from zero)";
  }
  return "";
}

}  // namespace bough
