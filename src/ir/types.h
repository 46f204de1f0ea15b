// Static types of IR values: Tensor(elem, shape), Sequence(T), Optional(T), Map(K, V).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bough/element_type.h"

namespace bough::ir {

// One dimension: a known size, a symbol (ONNX dim_param), or unknown.
struct Dim {
  enum class Kind : uint8_t { Unknown, Known, Symbol };
  Kind kind = Kind::Unknown;
  int64_t value = 0;
  std::string symbol;

  static Dim known(int64_t v) { return {Kind::Known, v, {}}; }
  static Dim named(std::string s) { return {Kind::Symbol, 0, std::move(s)}; }
  static Dim unknown() { return {}; }
  bool is_known() const { return kind == Kind::Known; }
  bool operator==(const Dim& o) const {
    return kind == o.kind && value == o.value && symbol == o.symbol;
  }
};

// A shape whose rank may itself be unknown.
struct Shape {
  bool rank_known = false;
  std::vector<Dim> dims;
  // The rank is unknown because values of different ranks meet here (an If's branches, a
  // loop-carried value's first and later iterations): a declared rank cannot narrow it.
  bool rank_varies = false;

  static Shape unknown_rank() { return {}; }
  static Shape of(std::vector<Dim> d) { return {true, std::move(d)}; }
  static Shape of_varying_rank() { return {false, {}, true}; }
  bool operator==(const Shape& o) const {
    return rank_known == o.rank_known && dims == o.dims && rank_varies == o.rank_varies;
  }
};

struct Type {
  enum class Kind : uint8_t { Undefined, Tensor, SparseTensor, Sequence, Optional, Map, Opaque };
  Kind kind = Kind::Undefined;
  ElemType elem = ElemType::Undefined;  // tensor element type, or the map key type
  Shape shape;                          // tensors only
  std::shared_ptr<const Type> inner;    // sequence/optional element, map value
  std::string denotation;

  static Type tensor(ElemType e, Shape s = Shape::unknown_rank()) {
    Type t;
    t.kind = Kind::Tensor;
    t.elem = e;
    t.shape = std::move(s);
    return t;
  }
  static Type wrap(Kind k, Type element) {
    Type t;
    t.kind = k;
    t.inner = std::make_shared<const Type>(std::move(element));
    return t;
  }
  bool defined() const { return kind != Kind::Undefined; }
  bool operator==(const Type& o) const;
};

// ONNX-style type strings: "tensor(float)[2,N,?]", "seq(tensor(int64))", "optional(...)".
std::string to_string(const Type& t);
std::string to_string(const Shape& s);

// A shape both `a` and `b` fit (what a value is when either may reach it): a dim is kept
// where both agree (same value or same symbol) and unknown otherwise; where both ranks are
// known and differ, or either varies, the rank is unknown and varies.
Shape union_shape(const Shape& a, const Shape& b);

}  // namespace bough::ir
