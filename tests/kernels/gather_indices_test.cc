// kernels::element_indices, the index check of GatherElements and ScatterElements.
#include "kernels/gather_indices.h"

#include <gtest/gtest.h>

#include <vector>

#include "bough/error.h"

namespace bough::kernels {
namespace {

Tensor ints(Dims shape, std::vector<int64_t> v) {
  return Tensor::from_vector<int64_t>(ElemType::Int64, shape, v);
}

void expect_bad_input(const Tensor& indices, const Tensor& data, size_t axis) {
  try {
    element_indices(indices, data, axis);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
  }
}

TEST(ElementIndices, FitDataButAlongTheAxis) {
  const Tensor data = Tensor::zeros(ElemType::Float, Dims{2, 3});
  // Along axis 1 (3 entries), indices may be as long as they like; -1 is entry 2.
  EXPECT_EQ(element_indices(ints(Dims{2, 4}, {0, 1, 2, -1, -3, 0, 1, 2}), data, 1),
            (std::vector<int64_t>{0, 1, 2, 2, 0, 0, 1, 2}));
  // No larger than data in the other dimension: 2 rows fit, 3 do not.
  EXPECT_EQ(element_indices(ints(Dims{2, 1}, {1, 0}), data, 1), (std::vector<int64_t>{1, 0}));
  expect_bad_input(ints(Dims{3, 1}, {0, 0, 0}), data, 1);
  // Of data's rank, with every index inside the axis.
  expect_bad_input(ints(Dims{2}, {0, 0}), data, 1);
  expect_bad_input(ints(Dims{1, 1}, {3}), data, 1);
  expect_bad_input(ints(Dims{1, 1}, {-4}), data, 1);
}

}  // namespace
}  // namespace bough::kernels
