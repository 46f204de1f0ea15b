#include "ir/types.h"

namespace bough::ir {

bool Type::operator==(const Type& o) const {
  if (kind != o.kind || elem != o.elem || !(shape == o.shape)) return false;
  if (!inner || !o.inner) return inner == o.inner;
  return *inner == *o.inner;
}

Shape union_shape(const Shape& a, const Shape& b) {
  if (a.rank_known && b.rank_known && a.dims.size() == b.dims.size()) {
    Shape u = a;
    for (size_t k = 0; k < u.dims.size(); ++k)
      if (!(a.dims[k] == b.dims[k])) u.dims[k] = Dim::unknown();
    return u;
  }
  if ((a.rank_known && b.rank_known) || a.rank_varies || b.rank_varies)
    return Shape::of_varying_rank();
  return Shape::unknown_rank();
}

std::string to_string(const Shape& s) {
  if (!s.rank_known) return "[*]";
  std::string out = "[";
  for (size_t i = 0; i < s.dims.size(); ++i) {
    if (i) out += ",";
    const Dim& d = s.dims[i];
    if (d.kind == Dim::Kind::Known)
      out += std::to_string(d.value);
    else if (d.kind == Dim::Kind::Symbol)
      out += d.symbol;
    else
      out += "?";
  }
  return out + "]";
}

std::string to_string(const Type& t) {
  auto inner = [&] { return t.inner ? to_string(*t.inner) : std::string("?"); };
  switch (t.kind) {
    case Type::Kind::Undefined:
      return "?";
    case Type::Kind::Tensor:
      return "tensor(" + std::string(elem_name(t.elem)) + ")" + to_string(t.shape);
    case Type::Kind::SparseTensor:
      return "sparse_tensor(" + std::string(elem_name(t.elem)) + ")" + to_string(t.shape);
    case Type::Kind::Sequence:
      return "seq(" + inner() + ")";
    case Type::Kind::Optional:
      return "optional(" + inner() + ")";
    case Type::Kind::Map:
      return "map(" + std::string(elem_name(t.elem)) + "," + inner() + ")";
    case Type::Kind::Opaque:
      return "opaque";
  }
  return "?";
}

}  // namespace bough::ir
