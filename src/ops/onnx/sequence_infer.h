// Inference pieces of the sequence and optional operators: the element type of a sequence,
// a sequence of a tensor type, and the type that covers two tensor types (the elements of a
// sequence built from tensors of different shapes).
#pragma once

#include "ops/shape_infer.h"

namespace bough::ops::sequence_infer {

// The element type of a sequence (or undefined when `t` is no sequence or not known).
inline ir::Type element_of(const ir::Type& t) {
  if (t.kind == ir::Type::Kind::Sequence && t.inner) return *t.inner;
  return {};
}

inline ir::Type seq_of(ir::Type element) {
  return ir::Type::wrap(ir::Type::Kind::Sequence, std::move(element));
}

// A tensor type both `a` and `b` fit (ir::union_shape). An undefined side yields the other.
inline ir::Type cover(const ir::Type& a, const ir::Type& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  if (a.kind != ir::Type::Kind::Tensor || b.kind != ir::Type::Kind::Tensor) return a;
  const ElemType elem = a.elem != ElemType::Undefined ? a.elem : b.elem;
  return ir::Type::tensor(elem, ir::union_shape(a.shape, b.shape));
}

}  // namespace bough::ops::sequence_infer
