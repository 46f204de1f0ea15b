#include "kernels/sub_byte.h"

#include "ir/float_formats.h"

namespace bough::kernels {

Tensor unpacked_fields(const Tensor& packed) {
  Tensor fields(ElemType::UInt8, packed.shape());
  const int bits = elem_bits(packed.type());
  const auto* in = packed.data<uint8_t>();
  auto* out = fields.data<uint8_t>();
  for (int64_t i = 0; i < packed.numel(); ++i) out[i] = get_packed(in, i, bits);
  return fields;
}

Tensor packed_fields(const Tensor& fields, ElemType type) {
  Tensor packed = Tensor::zeros(type, fields.shape());
  const int bits = elem_bits(type);
  const auto* in = fields.data<uint8_t>();
  auto* out = packed.data<uint8_t>();
  for (int64_t i = 0; i < fields.numel(); ++i) set_packed(out, i, bits, in[i]);
  return packed;
}

}  // namespace bough::kernels
