// Sub-byte tensors (int4, uint4, float4e2m1, int2, uint2) with one field per byte, so that
// operators that only move elements (Pad, TensorScatter) can run on the fields as UInt8 and
// pack what they produce.
#pragma once

#include "bough/tensor.h"

namespace bough::kernels {

// A UInt8 tensor of `packed`'s shape holding each element's raw field (not sign-extended).
Tensor unpacked_fields(const Tensor& packed);

// The `type` tensor (a sub-byte type) of `fields`' shape packing its UInt8 fields; padding
// bits of the last byte are zero.
Tensor packed_fields(const Tensor& fields, ElemType type);

}  // namespace bough::kernels
