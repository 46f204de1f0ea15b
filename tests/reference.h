// Shared helpers for testing kernels against straightforward reference loops: a seeded
// random source, random shapes (zero- and one-sized dimensions included), row-major
// index arithmetic, and bit-exact tensor comparison. Everything here is deliberately
// naive: it is what the optimized code is checked against.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bough/tensor.h"

namespace bough::test {

// A random source with a fixed seed per test, so a failure reproduces exactly.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  // Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen_);
  }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
  bool chance(double p) { return real(0, 1) < p; }
  uint64_t bits() { return gen_(); }
  // A dimension for shape tests: mostly small, with 0 and 1 often (the edge cases).
  int64_t dim(int64_t max = 5) {
    const int64_t r = uniform(0, 9);
    if (r == 0) return 0;
    if (r <= 3) return 1;
    return uniform(2, max);
  }
  // A shape of `rank` such dims.
  Dims shape(size_t rank, int64_t max = 5) {
    Dims d;
    for (size_t i = 0; i < rank; ++i) d.push_back(dim(max));
    return d;
  }
  std::mt19937_64& engine() { return gen_; }

 private:
  std::mt19937_64 gen_;
};

// Row-major strides in elements (the last dimension has stride 1).
inline std::vector<int64_t> strides_of(const Dims& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

// The coordinates of flat index `flat` in `shape`.
inline std::vector<int64_t> unravel(int64_t flat, const Dims& shape) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t i = shape.size(); i-- > 0;) {
    c[i] = flat % shape[i];
    flat /= shape[i];
  }
  return c;
}

// The flat index of coordinates `c` in `shape`.
inline int64_t ravel(const std::vector<int64_t>& c, const Dims& shape) {
  int64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + c[i];
  return flat;
}

// numpy broadcasting, one element at a time: the flat index in `in` that output coordinate
// `out_coord` (of an output of rank >= in's) reads. Dims of size 1 in `in` repeat.
inline int64_t broadcast_source(const std::vector<int64_t>& out_coord, const Dims& in) {
  const size_t shift = out_coord.size() - in.size();
  int64_t flat = 0;
  for (size_t i = 0; i < in.size(); ++i)
    flat = flat * in[i] + (in[i] == 1 ? 0 : out_coord[shift + i]);
  return flat;
}

// A tensor of type T (a plain C++ numeric type) with elements fill(i).
template <typename T, typename F>
Tensor tensor_of(ElemType type, const Dims& shape, F fill) {
  Tensor t(type, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(fill(i));
  return t;
}

// Random small integers as floats: sums of products of them are exact in float, so a
// kernel's result can be compared bit for bit whatever order it adds in.
inline Tensor small_int_floats(const Dims& shape, Rng& rng, int64_t lo = -4, int64_t hi = 4) {
  return tensor_of<float>(ElemType::Float, shape, [&](int64_t) { return rng.uniform(lo, hi); });
}

// Random floats in [lo, hi).
inline Tensor random_floats(const Dims& shape, Rng& rng, double lo = -1, double hi = 1) {
  return tensor_of<float>(ElemType::Float, shape, [&](int64_t) { return rng.real(lo, hi); });
}

// Same type, same shape and the same bits (strings: the same values). For results that
// must not depend on how the work was split.
inline ::testing::AssertionResult bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.type() != b.type())
    return ::testing::AssertionFailure()
           << "element types " << elem_name(a.type()) << " and " << elem_name(b.type());
  if (a.shape() != b.shape())
    return ::testing::AssertionFailure()
           << "shapes " << shape_string(a.shape()) << " and " << shape_string(b.shape());
  if (a.type() == ElemType::String) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.strings()[i] != b.strings()[i])
        return ::testing::AssertionFailure() << "string " << i << " differs";
    return ::testing::AssertionSuccess();
  }
  const auto* pa = static_cast<const uint8_t*>(a.raw());
  const auto* pb = static_cast<const uint8_t*>(b.raw());
  for (size_t i = 0; i < a.nbytes(); ++i)
    if (pa[i] != pb[i])
      return ::testing::AssertionFailure()
             << "byte " << i << " of " << a.nbytes() << " differs (element "
             << i * 8 / static_cast<size_t>(elem_bits(a.type())) << ")";
  return ::testing::AssertionSuccess();
}

}  // namespace bough::test
