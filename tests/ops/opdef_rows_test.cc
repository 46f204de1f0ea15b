// An operator's versions and its input and output counts are what its schema rows say:
// counts_from_rows counts formals as ONNX's OpSchema does, and every registered OpDef agrees
// with its rows.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/def_from_rows.h"
#include "ops/registry.h"

namespace bough::ops {
namespace {

ValueCounts counts(std::initializer_list<SignatureText> rows) {
  return counts_from_rows({rows.begin(), rows.size()});
}

// Worked by hand from the formals: a required formal after optional ones makes them
// count toward the minimum (an empty name holds their place); a variadic takes one or more.
TEST(OpDefRows, CountsFollowTheFormals) {
  EXPECT_EQ(counts({{1, "X: T -> Y: T; T = floats"}}), (ValueCounts{1, 1, 1, 1}));
  EXPECT_EQ(counts({{1, "X: T, W?: T, B?: T -> Y: T, Z?: T; T = floats"}}),
            (ValueCounts{1, 3, 1, 2}));
  EXPECT_EQ(counts({{1, "X: T, W?: T, B: T -> Y: T; T = floats"}}), (ValueCounts{3, 3, 1, 1}));
  EXPECT_EQ(counts({{1, "X*: T -> Y: T; T = floats"}}), (ValueCounts{1, kVariadic, 1, 1}));
  EXPECT_EQ(counts({{1, "M?: I, c?: B, v**: V -> o**: V; I = int64; B = bool; V = all"}}),
            (ValueCounts{3, kVariadic, 1, kVariadic}));
  EXPECT_EQ(counts({{1, " -> Y: T; T = floats"}}), (ValueCounts{0, 0, 1, 1}));
}

// Over several rows, the union: the fewest any row takes, the most any row takes.
TEST(OpDefRows, CountsAreTheUnionOverRows) {
  EXPECT_EQ(counts({{1, "X: T -> Y: T; T = floats"},
                    {5, "X: T, S: tensor(int64) -> Y: T; T = floats"},
                    {9, "X: T, S: tensor(int64), A?: tensor(int64) -> Y: T, M?: T; T = floats"}}),
            (ValueCounts{1, 3, 1, 2}));
}

// def_from_rows takes the versions and counts from the rows, and the options over them.
TEST(OpDefRows, DefinitionTakesVersionsAndCountsFromItsRows) {
  const SignatureText rows[] = {{1, "X: T -> Y: T; T = floats"},
                                {7, "X: T, S?: tensor(int64) -> Y: T, I?: T; T = floats"}};
  const OpDef def = def_from_rows("com.example", "Op", nullptr, nullptr, rows);
  EXPECT_EQ(def.domain, "com.example");
  EXPECT_EQ(def.name, "Op");
  EXPECT_EQ(def.versions, (std::vector<int>{1, 7}));
  EXPECT_EQ((ValueCounts{def.min_inputs, def.max_inputs, def.min_outputs, def.max_outputs}),
            (ValueCounts{1, 2, 1, 2}));
  ASSERT_EQ(def.signatures.size(), 2u);
  EXPECT_EQ(def.signatures[1].since, 7);
  EXPECT_FALSE(def.nondeterministic);

  const SignatureText draw_rows[] = {{1, "-> Y: T; T = floats"}};
  const OpDef random =
      def_from_rows("", "Draw", nullptr, nullptr, draw_rows, {.nondeterministic = true});
  EXPECT_TRUE(random.nondeterministic);
  EXPECT_EQ(random.min_inputs, 0);

  const SignatureText group_rows[] = {{1, "R: T, X**: V -> Y**: V; T = float; V = all"}};
  const OpDef grouped = def_from_rows("", "Groups", nullptr, nullptr, group_rows,
                                      {.counts = ValueCounts{4, kVariadic, 2, kVariadic}});
  EXPECT_EQ(grouped.min_inputs, 4);
  EXPECT_EQ(grouped.min_outputs, 2);
  EXPECT_EQ(grouped.versions, (std::vector<int>{1}));
}

TEST(OpDefRows, NoRowsIsAnError) { EXPECT_THROW(counts_from_rows({}), std::invalid_argument); }

std::string name_of(const OpDef& def) {
  return (def.domain.empty() ? "" : std::string(def.domain) + ".") + std::string(def.name);
}

// The operators whose counts say more than their rows can: a variadic formal that may be
// empty (ONNX's min_arity 0: Loop's v_initial, SequenceMap's additional_inputs), or one
// that comes in groups (the optimizers take X, G and their state per tensor).
const std::set<std::string> kCountsOverridden = {
    "Loop", "SequenceMap", "ai.onnx.preview.training.Adagrad", "ai.onnx.preview.training.Adam",
    "ai.onnx.preview.training.Momentum"};

// Every registered operator's versions are its rows' sinces, and its counts what the rows
// imply, but for the few above, which give their own (OpOptions::counts): an override is
// listed here, and one that says what the rows already say is refused.
TEST(OpDefRows, EveryOperatorAgreesWithItsRows) {
  size_t overridden = 0;
  for (const OpDef* def : all_ops()) {
    const std::string name = name_of(*def);
    SCOPED_TRACE(name);
    ASSERT_FALSE(def->signatures.empty());
    std::vector<int> sinces;
    for (const SignatureText& row : def->signatures) sinces.push_back(row.since);
    EXPECT_EQ(def->versions, sinces);
    const ValueCounts rows = counts_from_rows(def->signatures);
    const ValueCounts own{def->min_inputs, def->max_inputs, def->min_outputs, def->max_outputs};
    if (kCountsOverridden.count(name)) {
      ++overridden;
      EXPECT_NE(own, rows) << "the rows already say this: no override needed";
    } else {
      EXPECT_EQ(own.min_inputs, rows.min_inputs);
      EXPECT_EQ(own.max_inputs, rows.max_inputs);
      EXPECT_EQ(own.min_outputs, rows.min_outputs);
      EXPECT_EQ(own.max_outputs, rows.max_outputs);
    }
  }
  EXPECT_EQ(overridden, kCountsOverridden.size());
}

// Two counts the rows corrected, as ONNX defines them: StringSplit gives both of its
// outputs, and Loop at least one (v_final_and_scan_outputs has ONNX's default min_arity).
TEST(OpDefRows, CountsFollowTheSpecWhereTheyWereWrong) {
  const OpDef* split = find_op("", "StringSplit");
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->min_outputs, 2);
  EXPECT_EQ(split->max_outputs, 2);
  const OpDef* loop = find_op("", "Loop");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->min_inputs, 2);
  EXPECT_EQ(loop->min_outputs, 1);
}

}  // namespace
}  // namespace bough::ops
