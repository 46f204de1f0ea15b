// The If type rules on their own: the union of two branch types, and whether a declared
// type can describe a value.
#include "check/control_flow_rules.h"

#include <gtest/gtest.h>

namespace bough::check {
namespace {

using ir::Dim;
using ir::Shape;
using ir::Type;

Type tensor(std::vector<Dim> dims) {
  return Type::tensor(ElemType::Float, Shape::of(std::move(dims)));
}

TEST(IfUnion, KeepsTheDimsBothBranchesAgreeOn) {
  Type a = tensor({Dim::known(2), Dim::named("N"), Dim::known(4)});
  Type b = tensor({Dim::known(3), Dim::named("N"), Dim::known(4)});
  EXPECT_EQ(ir::to_string(union_type(a, b)), "tensor(float)[?,N,4]");
  EXPECT_EQ(ir::to_string(union_type(a, tensor({Dim::known(2)}))), "tensor(float)[*]");
  EXPECT_EQ(ir::to_string(union_type(a, Type::tensor(ElemType::Float))), "tensor(float)[*]");
}

TEST(IfUnion, RecursesIntoSequencesAndOptionals) {
  Type a = Type::wrap(Type::Kind::Sequence, tensor({Dim::known(2)}));
  Type b = Type::wrap(Type::Kind::Sequence, tensor({Dim::known(3)}));
  EXPECT_EQ(ir::to_string(union_type(a, b)), "seq(tensor(float)[?])");
  Type o = Type::wrap(Type::Kind::Optional, a);
  Type p = Type::wrap(Type::Kind::Optional, a);
  EXPECT_EQ(ir::to_string(union_type(o, p)), "optional(seq(tensor(float)[2]))");
}

TEST(IfUnion, DeclaredTypeCompatibility) {
  Type two = tensor({Dim::known(2)});
  EXPECT_TRUE(compatible(two, two));
  EXPECT_FALSE(compatible(two, tensor({Dim::known(3)})));
  EXPECT_TRUE(compatible(tensor({Dim::named("N")}), tensor({Dim::known(3)})));
  EXPECT_TRUE(compatible(tensor({Dim::unknown()}), tensor({Dim::known(3)})));
  EXPECT_TRUE(compatible(two, tensor({Dim::unknown()})));  // nothing known contradicts it
  EXPECT_FALSE(compatible(two, tensor({Dim::known(2), Dim::known(1)})));
  EXPECT_TRUE(compatible(Type::tensor(ElemType::Float), two));
  EXPECT_FALSE(compatible(Type::tensor(ElemType::Int64, two.shape), two));
  EXPECT_FALSE(compatible(Type::wrap(Type::Kind::Sequence, two), two));
}

TEST(IfRows, WhatEachRowAllows) {
  std::string why;
  Type seq_f = Type::wrap(Type::Kind::Sequence, Type::tensor(ElemType::Float));
  EXPECT_FALSE(if_allows(11, seq_f, &why));
  EXPECT_EQ(why, "sequences need If-13 or newer");
  EXPECT_TRUE(if_allows(13, seq_f, &why));
  Type opt_seq_f8 = Type::wrap(
      Type::Kind::Optional, Type::wrap(Type::Kind::Sequence, Type::tensor(ElemType::Float8E5M2)));
  EXPECT_FALSE(if_allows(25, opt_seq_f8, &why));
  EXPECT_EQ(why, "optional sequences allow only the element types of If-16");
  Type opt_f8 = Type::wrap(Type::Kind::Optional, Type::tensor(ElemType::Float8E5M2));
  EXPECT_TRUE(if_allows(19, opt_f8, &why));
  Type map;
  map.kind = Type::Kind::Map;
  EXPECT_FALSE(if_allows(25, map, &why));
  EXPECT_TRUE(if_allows(1, Type(), &why));  // nothing declared, nothing to check
}

// A sequence_type or optional_type without its elem_type (the reader leaves `inner` null):
// nothing to check inside, and no null dereference (found by the session_run fuzzer).
TEST(IfRows, UndeclaredInnerTypesAreAllowed) {
  std::string why;
  Type bare_seq;
  bare_seq.kind = Type::Kind::Sequence;
  EXPECT_TRUE(if_allows(13, bare_seq, &why));
  Type bare_opt;
  bare_opt.kind = Type::Kind::Optional;
  EXPECT_TRUE(if_allows(16, bare_opt, &why));
  EXPECT_FALSE(if_allows(15, bare_opt, &why));
  EXPECT_TRUE(if_allows(16, Type::wrap(Type::Kind::Optional, bare_seq), &why));
}

}  // namespace
}  // namespace bough::check
