// The Stacker (kernels/stacker.h), which builds the scan outputs of Loop and Scan: items
// appended one at a time must come out stacked in order, whether the buffer was
// preallocated for a known count, grew geometrically, or was preallocated for more items
// than arrived (an early exit).
#include "kernels/stacker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bough/error.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

// Appends `count` random int32 items of `item` shape to a Stacker expecting `expected`
// items and checks the result against the items concatenated by hand.
void check_stack(int64_t expected, int64_t count, const Dims& item, Rng& rng) {
  SCOPED_TRACE("expected " + std::to_string(expected) + ", count " + std::to_string(count) +
               ", item " + shape_string(item));
  Stacker s(expected);
  std::vector<int32_t> all;
  for (int64_t i = 0; i < count; ++i) {
    const Tensor t = test::tensor_of<int32_t>(ElemType::Int32, item,
                                              [&](int64_t) { return rng.uniform(-1000, 1000); });
    all.insert(all.end(), t.data<int32_t>(), t.data<int32_t>() + t.numel());
    s.append(t);
    ASSERT_EQ(s.count(), i + 1);
  }
  const Tensor out = s.finish(ElemType::Float, Dims{9});  // the empty spec is unused here
  Dims shape = item;
  shape.insert(0, count);
  ASSERT_EQ(out.shape(), shape);
  ASSERT_EQ(out.type(), ElemType::Int32);
  ASSERT_EQ(std::vector<int32_t>(out.data<int32_t>(), out.data<int32_t>() + out.numel()), all);
}

// Every way the buffer can be sized: unknown count (grows from 4), exact count, too small a
// guess (grows from it), too large a guess (a view of the filled part), with items of
// ranks 0-3 including empty items.
TEST(Stacker, StacksInOrderHoweverTheBufferIsSized) {
  Rng rng(21);
  for (int trial = 0; trial < 200; ++trial) {
    const Dims item = rng.shape(static_cast<size_t>(rng.uniform(0, 3)));
    const int64_t count = rng.uniform(1, 20);
    const int64_t expected = trial % 4 == 0   ? -1
                             : trial % 4 == 1 ? count
                             : trial % 4 == 2 ? rng.uniform(1, count)
                                              : count + rng.uniform(1, 10);
    check_stack(expected, count, item, rng);
    if (HasFatalFailure()) return;
  }
}

// No items: an empty [0, ...empty_item] tensor of the given type (a Loop that ran zero
// times), whether or not a count was expected.
TEST(Stacker, EmptyFinishUsesTheGivenTypeAndShape) {
  for (int64_t expected : {int64_t{-1}, int64_t{0}, int64_t{5}}) {
    Stacker s(expected);
    const Tensor out = s.finish(ElemType::Int64, Dims{2, 3});
    EXPECT_EQ(out.type(), ElemType::Int64);
    EXPECT_EQ(out.shape(), (Dims{0, 2, 3}));
    EXPECT_EQ(s.count(), 0);
  }
}

// A Stacker can be used again after finish (a Loop runs once per outer iteration), and the
// tensor it returned stays intact while the second round writes.
TEST(Stacker, ReuseAfterFinishLeavesTheFirstResultAlone) {
  Stacker s(-1);
  for (int i = 0; i < 3; ++i) s.append(test::f32({2}, {float(i), float(-i)}));
  const Tensor first = s.finish(ElemType::Float, Dims{2});
  for (int i = 0; i < 5; ++i) s.append(test::f32({1}, {100.0f + i}));
  const Tensor second = s.finish(ElemType::Float, Dims{1});
  EXPECT_EQ(test::floats_of(first), (std::vector<float>{0, 0, 1, -1, 2, -2}));
  EXPECT_EQ(test::floats_of(second), (std::vector<float>{100, 101, 102, 103, 104}));
  EXPECT_EQ(second.shape(), (Dims{5, 1}));
}

// Appending does not keep a reference to the item: changing the item afterwards (a Loop
// body overwrites its buffers in place) does not change the stack.
TEST(Stacker, CopiesItems) {
  Stacker s(2);
  Tensor item = test::f32({2}, {1, 2});
  s.append(item);
  item.data<float>()[0] = 9;
  s.append(item);
  EXPECT_EQ(test::floats_of(s.finish(ElemType::Float, Dims{2})), (std::vector<float>{1, 2, 9, 2}));
}

// Strings are stacked by value through growth.
TEST(Stacker, StacksStrings) {
  Stacker s(-1);
  std::vector<std::string> all;
  for (int i = 0; i < 11; ++i) {
    Tensor t(ElemType::String, Dims{2});
    t.strings()[0] = std::string(40, static_cast<char>('a' + i));  // long: heap storage
    t.strings()[1] = std::to_string(i);
    all.push_back(t.strings()[0]);
    all.push_back(t.strings()[1]);
    s.append(t);
  }
  const Tensor out = s.finish(ElemType::String, Dims{2});
  ASSERT_EQ(out.shape(), (Dims{11, 2}));
  EXPECT_EQ(std::vector<std::string>(out.strings(), out.strings() + 22), all);
}

// An item of another shape or type than the first is bad input naming the iteration.
TEST(Stacker, ChangingItemsAreBadInput) {
  Stacker s(-1);
  s.append(test::f32({2}, {1, 2}));
  test::expect_bad_input([&] { s.append(test::f32({3}, {1, 2, 3})); });
  test::expect_bad_input([&] { s.append(test::i64({2}, {1, 2})); });
}

// A huge expected count (a Loop with a large trip count that exits early) must not reserve
// memory for every iteration: 2^36 items of 64 bytes would be 4 TiB.
TEST(Stacker, HugeExpectedCountIsNotPreallocated) {
  Stacker s(int64_t{1} << 36);
  const Tensor item = Tensor::zeros(ElemType::Float, Dims{16});
  s.append(item);
  s.append(item);
  EXPECT_EQ(s.finish(ElemType::Float, Dims{16}).shape(), (Dims{2, 16}));
}

}  // namespace
}  // namespace bough::kernels
