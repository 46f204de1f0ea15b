// The cache of released buffers over 8 KiB (src/ir/storage.cc, ir/memory_limit.h) stays
// within its limit however many differently sized runs go by, and a lower limit frees what
// is over it at once; a new session empties it (free_cached_buffers), keeping the limit.
#include <gtest/gtest.h>

#include "bough/session.h"
#include "ir/memory_limit.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::GraphBuilder;

// y = -(ConstantOfShape(shape, 1.5)): the filled tensor dies inside the run, so each run
// releases a buffer of its size to the cache, and the output is another.
Session negated_fill() {
  GraphBuilder g;
  g.input("shape", ElemType::Int64, {1}).output("y", ElemType::Float, {-1});
  test::set_tensor(g.node("ConstantOfShape", {"shape"}, {"filled"}, "fill"), "value",
                   test::f32({1}, {1.5f}));
  g.node("Neg", {"filled"}, {"y"}, "neg");
  return Session(Model::load(
      test::save_model(test::make_model(g), test::scratch_dir("buffer_cache"), "m.onnx")));
}

// Restores the default limit when a test ends, whatever it checked.
struct DefaultCacheLimit {
  ~DefaultCacheLimit() { ir::set_buffer_cache_limit(size_t{1} << 30); }
};

TEST(BufferCache, ManyRunsOfDifferentSizesStayWithinTheLimit) {
  DefaultCacheLimit restore;
  constexpr size_t kLimit = size_t{3} << 20;
  ir::set_buffer_cache_limit(kLimit);
  EXPECT_LE(ir::buffer_cache_bytes(), kLimit);
  Session session = negated_fill();
  size_t most_cached = 0;
  // 12 KB to about 6.5 MB, every run a new size, some larger than the limit.
  for (int64_t i = 0; i < 200; ++i) {
    const int64_t n = 3000 + 8191 * i;
    NamedValues out = session.run({{"shape", test::i64({1}, {n})}});
    const Tensor& y = out[0].second.tensor();
    ASSERT_EQ(y.numel(), n);
    EXPECT_EQ(y.data<float>()[n - 1], -1.5f);
    out.clear();
    ASSERT_LE(ir::buffer_cache_bytes(), kLimit) << "after a run of " << n << " elements";
    most_cached = std::max(most_cached, ir::buffer_cache_bytes());
  }
  // The runs' buffers did go to the cache (those that fit).
  EXPECT_GT(most_cached, size_t{0});
}

TEST(BufferCache, ALowerLimitFreesWhatIsOverIt) {
  DefaultCacheLimit restore;
  Session session = negated_fill();
  session.run({{"shape", test::i64({1}, {int64_t{1} << 18})}});  // 1 MiB buffers
  EXPECT_GE(ir::buffer_cache_bytes(), size_t{1} << 20);
  ir::set_buffer_cache_limit(size_t{64} << 10);
  EXPECT_LE(ir::buffer_cache_bytes(), size_t{64} << 10);
  ir::set_buffer_cache_limit(0);
  EXPECT_EQ(ir::buffer_cache_bytes(), 0u);
  // Nothing is cached with no room, and runs go on.
  NamedValues out = session.run({{"shape", test::i64({1}, {int64_t{1} << 18})}});
  out.clear();
  EXPECT_EQ(ir::buffer_cache_bytes(), 0u);
}

// What a session drops when it is built (the weights its kernels prepared) would otherwise
// sit in the cache: creating a session frees every cached buffer, and caching goes on.
TEST(BufferCache, ANewSessionFreesTheCache) {
  Session first = negated_fill();
  first.run({{"shape", test::i64({1}, {int64_t{1} << 18})}});  // 1 MiB buffers
  EXPECT_GE(ir::buffer_cache_bytes(), size_t{1} << 20);
  Session second = negated_fill();
  EXPECT_EQ(ir::buffer_cache_bytes(), 0u);
  first.run({{"shape", test::i64({1}, {int64_t{1} << 18})}});
  EXPECT_GE(ir::buffer_cache_bytes(), size_t{1} << 20);
  ir::free_cached_buffers();
  EXPECT_EQ(ir::buffer_cache_bytes(), 0u);
}

}  // namespace
}  // namespace bough
