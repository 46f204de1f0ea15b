// The layout helpers (kernels/layout.h) against index arithmetic done one element at a
// time: transpose with random permutations, move_axis, select and reverse_leading, over
// random shapes of ranks 0-5 with zero- and one-sized dims and element widths 1 to 8
// bytes and strings.
#include "kernels/layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "bough/error.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

// A tensor whose element i is i (mod the type's range), of the types whose storage width
// differs: the helpers dispatch on width.
Tensor iota(ElemType t, const Dims& shape) {
  Tensor x(t, shape);
  for (int64_t i = 0; i < x.numel(); ++i) {
    switch (t) {
      case ElemType::UInt8:
        x.data<uint8_t>()[i] = static_cast<uint8_t>(i * 7);
        break;
      case ElemType::Int16:
        x.data<int16_t>()[i] = static_cast<int16_t>(i);
        break;
      case ElemType::Float:
        x.data<float>()[i] = static_cast<float>(i);
        break;
      case ElemType::Int64:
        x.data<int64_t>()[i] = i * 1000003;
        break;
      case ElemType::String:
        x.strings()[i] = "s" + std::to_string(i);
        break;
      default:
        ADD_FAILURE() << "no iota for " << elem_name(t);
    }
  }
  return x;
}

// Element i of any tensor iota makes, as a string, so one comparison serves every type.
std::string element(const Tensor& x, int64_t i) {
  return x.type() == ElemType::String ? x.strings()[i] : std::to_string(x.get_double(i));
}

const ElemType kTypes[] = {ElemType::UInt8, ElemType::Int16, ElemType::Float, ElemType::Int64,
                           ElemType::String};

// out[c] = x[c permuted back]: out coordinate i is x's coordinate perm[i].
TEST(Layout, TransposeMatchesReference) {
  Rng rng(31);
  for (int trial = 0; trial < 400; ++trial) {
    const ElemType t = kTypes[trial % 5];
    const Dims shape = rng.shape(static_cast<size_t>(rng.uniform(0, 5)));
    std::vector<int64_t> perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng.engine());
    SCOPED_TRACE(shape_string(shape) + " perm " + shape_string(perm) + " " +
                 std::string(elem_name(t)));
    const Tensor x = iota(t, shape);
    const Tensor y = transpose(x, perm);
    Dims want_shape;
    for (int64_t p : perm) want_shape.push_back(shape[static_cast<size_t>(p)]);
    ASSERT_EQ(y.shape(), want_shape);
    ASSERT_EQ(y.type(), t);
    for (int64_t i = 0; i < y.numel(); ++i) {
      const std::vector<int64_t> oc = test::unravel(i, want_shape);
      std::vector<int64_t> xc(shape.size());
      for (size_t d = 0; d < perm.size(); ++d) xc[static_cast<size_t>(perm[d])] = oc[d];
      ASSERT_EQ(element(y, i), element(x, test::ravel(xc, shape))) << "element " << i;
    }
  }
}

// Permutations that are not permutations, and sub-byte types, are refused.
TEST(Layout, TransposeRejectsBadPermutations) {
  const Tensor x = iota(ElemType::Float, Dims{2, 3});
  const std::vector<std::vector<int64_t>> bad = {{0}, {0, 0}, {0, 2}, {-1, 0}, {0, 1, 2}};
  for (const auto& perm : bad) test::expect_bad_input([&] { transpose(x, perm); });
  const std::vector<int64_t> swap{1, 0};
  EXPECT_THROW(transpose(Tensor(ElemType::Int4, Dims{2, 2}), swap), Error);
}

// move_axis(x, from, to) is the transpose whose permutation takes `from` out and puts it
// back at `to`.
TEST(Layout, MoveAxisMatchesReference) {
  Rng rng(32);
  for (int trial = 0; trial < 200; ++trial) {
    const Dims shape = rng.shape(static_cast<size_t>(rng.uniform(1, 5)));
    const int64_t rank = static_cast<int64_t>(shape.size());
    const int64_t from = rng.uniform(0, rank - 1), to = rng.uniform(0, rank - 1);
    SCOPED_TRACE(shape_string(shape) + " from " + std::to_string(from) + " to " +
                 std::to_string(to));
    const Tensor x = iota(ElemType::Int64, shape);
    const Tensor y = move_axis(x, from, to);
    std::vector<int64_t> order;  // out axis d is x axis order[d]
    for (int64_t d = 0; d < rank; ++d)
      if (d != from) order.push_back(d);
    order.insert(order.begin() + to, from);
    Dims want_shape;
    for (int64_t d : order) want_shape.push_back(shape[static_cast<size_t>(d)]);
    ASSERT_EQ(y.shape(), want_shape);
    for (int64_t i = 0; i < y.numel(); ++i) {
      const std::vector<int64_t> oc = test::unravel(i, want_shape);
      std::vector<int64_t> xc(shape.size());
      for (size_t d = 0; d < order.size(); ++d) xc[static_cast<size_t>(order[d])] = oc[d];
      ASSERT_EQ(y.get_int(i), x.get_int(test::ravel(xc, shape))) << "element " << i;
    }
  }
}

// select(x, axis, index) is x with that axis removed at that index; along axis 0 it is a
// view sharing x's buffer.
TEST(Layout, SelectMatchesReference) {
  Rng rng(33);
  for (int trial = 0; trial < 300; ++trial) {
    const ElemType t = kTypes[trial % 5];
    Dims shape = rng.shape(static_cast<size_t>(rng.uniform(1, 4)));
    const int64_t axis = rng.uniform(0, static_cast<int64_t>(shape.size()) - 1);
    if (shape[static_cast<size_t>(axis)] == 0) shape[static_cast<size_t>(axis)] = 2;
    const int64_t index = rng.uniform(0, shape[static_cast<size_t>(axis)] - 1);
    SCOPED_TRACE(shape_string(shape) + " axis " + std::to_string(axis) + " index " +
                 std::to_string(index) + " " + std::string(elem_name(t)));
    const Tensor x = iota(t, shape);
    const Tensor y = select(x, axis, index);
    Dims want_shape = shape;
    want_shape.erase(static_cast<size_t>(axis));
    ASSERT_EQ(y.shape(), want_shape);
    for (int64_t i = 0; i < y.numel(); ++i) {
      std::vector<int64_t> xc = test::unravel(i, want_shape);
      xc.insert(xc.begin() + axis, index);
      ASSERT_EQ(element(y, i), element(x, test::ravel(xc, shape))) << "element " << i;
    }
    if (axis == 0) {
      EXPECT_FALSE(x.unique()) << "a view along axis 0 shares the buffer";
    }
  }
}

// reverse_leading(x)[t] = x[len - 1 - t] along axis 0; a scalar stays as it is.
TEST(Layout, ReverseLeadingMatchesReference) {
  Rng rng(34);
  for (int trial = 0; trial < 200; ++trial) {
    const ElemType t = kTypes[trial % 5];
    const Dims shape = rng.shape(static_cast<size_t>(rng.uniform(0, 4)));
    SCOPED_TRACE(shape_string(shape) + " " + std::string(elem_name(t)));
    const Tensor x = iota(t, shape);
    const Tensor y = reverse_leading(x);
    ASSERT_EQ(y.shape(), shape);
    for (int64_t i = 0; i < y.numel(); ++i) {
      std::vector<int64_t> c = test::unravel(i, shape);
      if (!c.empty()) c[0] = shape[0] - 1 - c[0];
      ASSERT_EQ(element(y, i), element(x, test::ravel(c, shape))) << "element " << i;
    }
  }
}

TEST(Layout, NormalizeAxis) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_EQ(normalize_axis(-3, 3), 0);
  EXPECT_EQ(normalize_axis(2, 3), 2);
  test::expect_bad_input([] { normalize_axis(3, 3); });
  test::expect_bad_input([] { normalize_axis(-4, 3); });
  test::expect_bad_input([] { normalize_axis(0, 0); });
}

}  // namespace
}  // namespace bough::kernels
