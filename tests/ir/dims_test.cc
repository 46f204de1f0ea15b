// Dims: the inline small vector behind tensor shapes, across its inline/heap boundary.
#include <gtest/gtest.h>

#include "bough/tensor.h"

namespace bough {
namespace {

TEST(Dims, CopiesAcrossTheInlineAndHeapForms) {
  const Dims small{2, 3};
  const Dims big{1, 2, 3, 4, 5, 6, 7, 8};  // past kInline: on the heap
  Dims d = big;
  EXPECT_EQ(d, big);
  d = small;  // a heap-backed Dims takes an inline one
  EXPECT_EQ(d, small);
  EXPECT_EQ(d.vec(), (std::vector<int64_t>{2, 3}));
  d = big;
  EXPECT_EQ(d.vec(), big.vec());
  Dims moved = std::move(d);
  EXPECT_EQ(moved, big);
  Dims e = small;
  e = std::move(moved);
  EXPECT_EQ(e, big);
  e = Dims{9};
  EXPECT_EQ(e.vec(), (std::vector<int64_t>{9}));
}

}  // namespace
}  // namespace bough
