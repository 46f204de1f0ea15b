#include "check/control_flow_rules.h"

namespace bough::check {

namespace {

using K = ir::Type::Kind;

// The first If row whose V admits tensors of element type `e` (1 for the types of If-1).
int first_if_row(ElemType e) {
  switch (e) {
    case ElemType::BFloat16:
      return 16;
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      return 19;
    case ElemType::Int4:
    case ElemType::UInt4:
      return 21;
    case ElemType::Float4E2M1:
      return 23;
    case ElemType::Float8E8M0:
      return 24;
    case ElemType::Int2:
    case ElemType::UInt2:
      return 25;
    default:
      return 1;
  }
}

bool elem_allowed(int since, ElemType e, std::string* why) {
  int first = first_if_row(e);
  if (e == ElemType::Undefined || first <= since) return true;
  *why = std::string(elem_name(e)) + " needs If-" + std::to_string(first) + " or newer";
  return false;
}

}  // namespace

bool if_allows(int since, const ir::Type& t, std::string* why) {
  switch (t.kind) {
    case K::Undefined:
      return true;
    case K::Tensor:
      return elem_allowed(since, t.elem, why);
    case K::Sequence:
      if (since < 13) {
        *why = "sequences need If-13 or newer";
        return false;
      }
      // An undeclared element type (a sequence_type without elem_type) has nothing to check.
      return !t.inner || t.inner->kind != K::Tensor || elem_allowed(since, t.inner->elem, why);
    case K::Optional: {
      if (since < 16) {
        *why = "optionals need If-16 or newer";
        return false;
      }
      if (!t.inner || !t.inner->defined()) return true;  // optional_type without elem_type
      const ir::Type& in = *t.inner;
      if (in.kind == K::Tensor) return elem_allowed(since, in.elem, why);
      if (in.kind == K::Sequence && !in.inner) return true;
      if (in.kind == K::Sequence && in.inner->kind == K::Tensor) {
        // Optional sequences kept the element types of If-16 in every later row.
        if (first_if_row(in.inner->elem) > 16) {
          *why = "optional sequences allow only the element types of If-16";
          return false;
        }
        return elem_allowed(since, in.inner->elem, why);
      }
      *why = "only optional tensors and optional sequences of tensors are allowed";
      return false;
    }
    default:
      *why = "only tensors, sequences and optionals are allowed";
      return false;
  }
}

bool kinds_agree(const ir::Type& a, const ir::Type& b) {
  if (!a.defined() || !b.defined()) return true;
  if (a.kind != b.kind) return false;
  if (a.elem != ElemType::Undefined && b.elem != ElemType::Undefined && a.elem != b.elem)
    return false;
  return !a.inner || !b.inner || kinds_agree(*a.inner, *b.inner);
}

ir::Type union_type(const ir::Type& a, const ir::Type& b) {
  if (!a.defined() || !b.defined()) return {};
  ir::Type u = a;
  if (u.elem == ElemType::Undefined) u.elem = b.elem;
  if (a.kind == K::Tensor) {
    u.shape = ir::union_shape(a.shape, b.shape);
  } else if (a.inner && b.inner) {
    u.inner = std::make_shared<const ir::Type>(union_type(*a.inner, *b.inner));
  }
  return u;
}

bool compatible(const ir::Type& declared, const ir::Type& actual) {
  if (!declared.defined() || !actual.defined()) return true;
  if (declared.kind != actual.kind) return false;
  if (declared.elem != ElemType::Undefined && actual.elem != ElemType::Undefined &&
      declared.elem != actual.elem)
    return false;
  if (declared.kind != K::Tensor)
    return !declared.inner || !actual.inner || compatible(*declared.inner, *actual.inner);
  const ir::Shape& d = declared.shape;
  const ir::Shape& s = actual.shape;
  if (!d.rank_known || !s.rank_known) return true;
  if (d.dims.size() != s.dims.size()) return false;
  for (size_t i = 0; i < d.dims.size(); ++i)
    if (d.dims[i].is_known() && s.dims[i].is_known() && d.dims[i].value != s.dims[i].value)
      return false;
  return true;
}

}  // namespace bough::check
