// The broadcast iterator (kernels/broadcast.h) and the elementwise loops built on it
// (kernels/elementwise_loops.h), against numpy's rule applied one element at a time
// (test::broadcast_source), over random shapes of ranks 0-4 with zero- and one-sized dims.
#include "kernels/broadcast.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bough/error.h"
#include "kernels/elementwise_loops.h"
#include "kernels/streaming_store.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

// `count` input shapes that broadcast together: an output shape of rank 0-4, and for each
// input a suffix of it where any dim may be replaced by 1 (and a 0 dim may stay 0 or be 1).
std::vector<Dims> compatible_shapes(Rng& rng, int count) {
  const Dims out = rng.shape(static_cast<size_t>(rng.uniform(0, 4)));
  std::vector<Dims> shapes;
  for (int k = 0; k < count; ++k) {
    const size_t rank = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(out.size())));
    Dims s;
    for (size_t i = out.size() - rank; i < out.size(); ++i)
      s.push_back(rng.chance(0.4) ? 1 : out[i]);
    shapes.push_back(s);
  }
  return shapes;
}

// The broadcast shape by the rule itself: per aligned dim, the one that is not 1.
Dims reference_shape(const std::vector<Dims>& shapes) {
  size_t rank = 0;
  for (const Dims& s : shapes) rank = std::max(rank, s.size());
  Dims out;
  out.resize(rank, 1);
  for (const Dims& s : shapes)
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] != 1) out[rank - s.size() + i] = s[i];
  return out;
}

// Walks the whole loop in `pieces` random [begin, end) ranges of runs, as threads would, and
// checks that every output element is visited once, with every input's offset the one the
// reference rule gives.
void check_loop(const std::vector<Dims>& shapes, Rng& rng, int pieces) {
  const Dims out = reference_shape(shapes);
  std::vector<const Dims*> ins;
  for (const Dims& s : shapes) ins.push_back(&s);
  const BroadcastLoop L = make_broadcast_loop(out, ins);
  ASSERT_EQ(L.outer() * L.inner(), out.numel());
  std::vector<int64_t> cuts = {0, L.outer()};
  for (int p = 1; p < pieces; ++p) cuts.push_back(rng.uniform(0, L.outer()));
  std::sort(cuts.begin(), cuts.end());
  std::vector<int> visits(static_cast<size_t>(out.numel()), 0);
  for (size_t c = 0; c + 1 < cuts.size(); ++c) {
    for_each_run(L, cuts[c], cuts[c + 1], [&](int64_t o, const int64_t* in, int64_t n) {
      ASSERT_EQ(n, L.inner());
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_LT(o + i, out.numel());
        ++visits[static_cast<size_t>(o + i)];
        const std::vector<int64_t> coord = test::unravel(o + i, out);
        for (size_t k = 0; k < shapes.size(); ++k)
          ASSERT_EQ(in[k] + i * L.inner_stride(static_cast<int>(k)),
                    test::broadcast_source(coord, shapes[k]))
              << "input " << k << " at output element " << o + i;
      }
    });
  }
  for (size_t i = 0; i < visits.size(); ++i) ASSERT_EQ(visits[i], 1) << "output element " << i;
}

std::string describe(const std::vector<Dims>& shapes) {
  std::string s;
  for (const Dims& d : shapes) s += shape_string(d) + " ";
  return s;
}

// broadcast_shape agrees with the rule, in either argument order.
TEST(Broadcast, ShapeOfCompatibleShapes) {
  Rng rng(1);
  for (int trial = 0; trial < 500; ++trial) {
    const std::vector<Dims> s = compatible_shapes(rng, 2);
    SCOPED_TRACE(describe(s));
    EXPECT_EQ(broadcast_shape(s[0], s[1]), reference_shape(s));
    EXPECT_EQ(broadcast_shape(s[1], s[0]), reference_shape(s));
  }
}

// Two dims that differ and are not 1 (0 against 2 included) do not broadcast.
TEST(Broadcast, IncompatibleShapesAreBadInput) {
  test::expect_bad_input([] { broadcast_shape(Dims{2, 3}, Dims{4}); });
  test::expect_bad_input([] { broadcast_shape(Dims{0}, Dims{2}); });
  test::expect_bad_input([] { broadcast_shape(Dims{5, 2, 3}, Dims{3, 1}); });
  EXPECT_EQ(broadcast_shape(Dims{5, 1, 3}, Dims{2, 1}), (Dims{5, 2, 3}));
  EXPECT_FALSE(broadcasts_to(Dims{3}, Dims{3, 2}));
  EXPECT_TRUE(broadcasts_to(Dims{3, 1}, Dims{2, 3, 4}));
  EXPECT_TRUE(broadcasts_to(Dims{}, Dims{0}));
}

// The iterator, for one, two and three inputs (Where has three), walked whole and in
// pieces: every output element once, every input offset right. Collapsing dims with the
// same pattern must not change any offset.
TEST(Broadcast, LoopOffsetsMatchTheRule) {
  Rng rng(2);
  for (int trial = 0; trial < 600; ++trial) {
    const std::vector<Dims> s = compatible_shapes(rng, 1 + trial % 3);
    SCOPED_TRACE(describe(s));
    check_loop(s, rng, 1 + trial % 4);
    if (HasFatalFailure()) return;
  }
}

// Shapes chosen to exercise the collapse: contiguous runs that merge, broadcast runs that
// merge, and patterns that alternate so nothing merges.
TEST(Broadcast, LoopCollapsesOnlyWhatItMay) {
  Rng rng(3);
  const std::vector<std::vector<Dims>> cases = {
      {Dims{2, 3, 4}, Dims{2, 3, 4}},        // all contiguous: one run
      {Dims{2, 3, 4}, Dims{}},               // a scalar against everything
      {Dims{2, 3, 4}, Dims{3, 4}},           // inner block repeated
      {Dims{2, 3, 4}, Dims{2, 1, 1}},        // outer index only
      {Dims{2, 1, 4}, Dims{1, 3, 1}},        // alternating: nothing merges
      {Dims{3, 1, 5, 1}, Dims{1, 4, 1, 2}},  // alternating, rank 4
      {Dims{1, 1, 7}, Dims{6, 1, 1}},        // ones on both sides
      {Dims{4, 0, 3}, Dims{1, 3}},           // empty output
      {Dims{2, 3, 4}, Dims{2, 3, 1}, Dims{1, 3, 4}},
  };
  for (const auto& s : cases) {
    SCOPED_TRACE(describe(s));
    check_loop(s, rng, 3);
  }
  // Equal shapes collapse to a single contiguous run.
  const Dims a{2, 3, 4};
  const Dims* same[] = {&a, &a};
  const BroadcastLoop L = make_broadcast_loop(a, same);
  EXPECT_EQ(L.rank, 1);
  EXPECT_EQ(L.inner(), 24);
}

// binary_map (the loop every binary operator runs) against out[i] = op(a[src_a], b[src_b]),
// with an operator that is not symmetric so swapped inputs show. Integer values keep the
// comparison exact.
TEST(Broadcast, BinaryMapMatchesReference) {
  Rng rng(4);
  util::ThreadPool pool(1);
  for (int trial = 0; trial < 500; ++trial) {
    const std::vector<Dims> s = compatible_shapes(rng, 2);
    SCOPED_TRACE(describe(s));
    const Tensor a = test::tensor_of<int64_t>(ElemType::Int64, s[0],
                                              [&](int64_t) { return rng.uniform(-50, 50); });
    const Tensor b = test::tensor_of<int32_t>(ElemType::Int32, s[1],
                                              [&](int64_t) { return rng.uniform(-50, 50); });
    auto op = [](int64_t x, int32_t y) { return static_cast<double>(x * 1000 + y); };
    const Tensor out = binary_map<int64_t, int32_t, double>(a, b, ElemType::Double, pool, op);
    const Dims shape = reference_shape(s);
    ASSERT_EQ(out.shape(), shape);
    ASSERT_EQ(out.type(), ElemType::Double);
    for (int64_t i = 0; i < out.numel(); ++i) {
      const std::vector<int64_t> c = test::unravel(i, shape);
      const double want = op(a.data<int64_t>()[test::broadcast_source(c, s[0])],
                             b.data<int32_t>()[test::broadcast_source(c, s[1])]);
      ASSERT_EQ(out.data<double>()[i], want) << "element " << i;
    }
  }
}

// The output buffer is reused when unique and of the same shape (Loop bodies rely on it),
// and then fully overwritten.
TEST(Broadcast, BinaryMapIntoReusesAndOverwrites) {
  util::ThreadPool pool(1);
  const Tensor a = test::f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b = test::f32({3}, {10, 20, 30});
  Tensor out(ElemType::Float, Dims{2, 3});
  for (int64_t i = 0; i < 6; ++i) out.data<float>()[i] = -1;
  const void* buffer = out.raw();
  binary_map_into<float, float, float>(a, b, out, ElemType::Float, pool,
                                       [](float x, float y) { return x + y; });
  EXPECT_EQ(out.raw(), buffer);
  EXPECT_EQ(test::floats_of(out), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

// unary_map keeps the shape (scalars and empty tensors too).
TEST(Broadcast, UnaryMapMatchesReference) {
  Rng rng(5);
  util::ThreadPool pool(1);
  for (int trial = 0; trial < 100; ++trial) {
    const Dims shape = rng.shape(static_cast<size_t>(rng.uniform(0, 4)));
    const Tensor x = test::tensor_of<int32_t>(ElemType::Int32, shape,
                                              [&](int64_t) { return rng.uniform(-9, 9); });
    const Tensor y = unary_map<int32_t, int64_t>(x, ElemType::Int64, pool,
                                                 [](int32_t v) { return int64_t{v} * v - 1; });
    ASSERT_EQ(y.shape(), shape);
    for (int64_t i = 0; i < x.numel(); ++i)
      ASSERT_EQ(y.data<int64_t>()[i], int64_t{x.data<int32_t>()[i]} * x.data<int32_t>()[i] - 1);
  }
}

// A map's element costs what its function declares (kWork) when that is more than its bytes.
struct Costly {
  static constexpr int64_t kWork = 100;
};
struct Cheap {
  static constexpr int64_t kWork = 2;
};
struct Plain {};

TEST(Broadcast, ElementWorkIsTheMathsCostOrTheBytes) {
  EXPECT_EQ(work_of<Costly>(8), 100);
  EXPECT_EQ(work_of<Cheap>(8), 8);
  EXPECT_EQ(work_of<Plain>(16), 16);
}

// The elementwise loops split across a pool: large inputs, each shape pattern (flat,
// broadcast with a long inner run, broadcast with a short one), against the reference.
TEST(Broadcast, ThreadedBinaryMapMatchesReference) {
  util::ThreadPool pool(3);
  Rng rng(6);
  const std::vector<std::vector<Dims>> cases = {
      {Dims{3, 70000}, Dims{3, 70000}},  // flat
      {Dims{5, 1, 40000}, Dims{3, 1}},   // a scalar of b against runs of a
      {Dims{70000, 3}, Dims{70000, 1}},  // short inner runs, many of them
  };
  for (const auto& s : cases) {
    SCOPED_TRACE(describe(s));
    const Tensor a = test::small_int_floats(s[0], rng);
    const Tensor b = test::small_int_floats(s[1], rng);
    const Tensor out = binary_map<float, float, float>(a, b, ElemType::Float, pool,
                                                       [](float x, float y) { return x - 2 * y; });
    const Dims shape = reference_shape(s);
    ASSERT_EQ(out.shape(), shape);
    for (int64_t i = 0; i < out.numel(); ++i) {
      const std::vector<int64_t> c = test::unravel(i, shape);
      ASSERT_EQ(out.data<float>()[i], a.data<float>()[test::broadcast_source(c, s[0])] -
                                          2 * b.data<float>()[test::broadcast_source(c, s[1])])
          << "element " << i;
    }
  }
}

// stream_copy copies every byte, whatever dst's alignment and the length (the aligned middle
// with non-temporal stores, the ends with ordinary ones).
TEST(Broadcast, StreamCopyCopiesEveryByte) {
  std::vector<unsigned char> src(300), dst(400);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  for (size_t offset = 0; offset < 40; ++offset)
    for (size_t bytes :
         {size_t{0}, size_t{1}, size_t{31}, size_t{32}, size_t{33}, size_t{100}, size_t{300}}) {
      std::fill(dst.begin(), dst.end(), 0);
      stream_copy(dst.data() + offset, src.data(), bytes);
      streaming_fence();
      for (size_t i = 0; i < dst.size(); ++i)
        ASSERT_EQ(dst[i], i >= offset && i < offset + bytes ? src[i - offset] : 0)
            << "offset " << offset << ", " << bytes << " bytes, byte " << i;
    }
}

// An output past kStreamingOutputBytes is written through streaming stores, on 2 threads:
// the broadcast_add benchmark's shapes with 64 rows of a cut to 32 (64 MiB), and a run
// length that is not a whole number of tiles.
TEST(Broadcast, OutputPastTheCacheMatchesReference) {
  util::ThreadPool pool(2);
  Rng rng(7);
  const std::vector<std::vector<Dims>> cases = {
      {Dims{32, 1, 1024}, Dims{1, 512, 1024}},
      {Dims{16, 1, 1300}, Dims{1, 820, 1300}},
  };
  for (const auto& s : cases) {
    SCOPED_TRACE(describe(s));
    const Tensor a = test::small_int_floats(s[0], rng);
    const Tensor b = test::small_int_floats(s[1], rng);
    const Tensor out = binary_map<float, float, float>(a, b, ElemType::Float, pool,
                                                       [](float x, float y) { return x - 2 * y; });
    ASSERT_GE(out.nbytes(), static_cast<size_t>(kStreamingOutputBytes));
    const int64_t n = s[0][2], rows_b = s[1][1];
    for (int64_t i = 0; i < out.numel(); ++i) {
      const int64_t j = i % n, row = i / n;  // a's row is row / rows_b, b's row % rows_b
      ASSERT_EQ(out.data<float>()[i],
                a.data<float>()[row / rows_b * n + j] - 2 * b.data<float>()[row % rows_b * n + j])
          << "element " << i;
    }
  }
}

}  // namespace
}  // namespace bough::kernels
