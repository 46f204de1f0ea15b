// ops/attr_choice.h: a string attribute read as one of a few choices, its fallback when
// absent, and the error that lists the texts allowed.
#include "ops/attr_choice.h"

#include <gtest/gtest.h>

#include "error_text.h"

namespace bough::test {
namespace {

using ops::Choice;
using ops::NodeView;

enum class Fruit { Apple, Pear, Plum };

ir::Node node_with_mode(const char* mode) {
  ir::Node n;
  n.op_type = "Op";
  if (mode) {
    ir::Attribute a;
    a.name = "mode";
    a.kind = ir::Attribute::Kind::String;
    a.s = mode;
    n.attributes.push_back(std::move(a));
  }
  return n;
}

Fruit read(const char* mode) {
  const ir::Node n = node_with_mode(mode);
  const NodeView view(n, 1, 1, nullptr, "node");
  return ops::attr_choice<Fruit>(
      view, "mode", "pear",
      {{"apple", Fruit::Apple}, {"pear", Fruit::Pear}, {"plum", Fruit::Plum}});
}

TEST(AttrChoice, EachTextGivesItsValue) {
  EXPECT_EQ(read("apple"), Fruit::Apple);
  EXPECT_EQ(read("pear"), Fruit::Pear);
  EXPECT_EQ(read("plum"), Fruit::Plum);
}

TEST(AttrChoice, AnAbsentAttributeTakesTheFallback) { EXPECT_EQ(read(nullptr), Fruit::Pear); }

TEST(AttrChoice, AnyOtherTextIsAnInvalidModelListingTheChoices) {
  expect_error_mentioning([] { read("Apple"); },
                          "mode must be 'apple', 'pear' or 'plum', got 'Apple'",
                          ErrorKind::InvalidModel);
  expect_error_mentioning([] { read(""); }, "got ''", ErrorKind::InvalidModel);
}

TEST(AttrChoice, ChoiceOfAGivenTextAndOfTwoChoices) {
  const ir::Node n = node_with_mode(nullptr);
  const NodeView view(n, 1, 1, nullptr, "node");
  constexpr Choice<bool> kWays[] = {{"linear", false}, {"circular", true}};
  EXPECT_TRUE(ops::choice_of<bool>(view, "mode", "circular", kWays));
  EXPECT_FALSE(ops::choice_of<bool>(view, "mode", "linear", kWays));
  expect_error_mentioning([&] { ops::choice_of<bool>(view, "mode", "wrap", kWays); },
                          "mode must be 'linear' or 'circular', got 'wrap'",
                          ErrorKind::InvalidModel);
}

}  // namespace
}  // namespace bough::test
