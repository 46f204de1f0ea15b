// The thread pool's error handling, and reference counts of buffers that leave a run.
#include "util/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

// A chunk that throws, on the calling thread or on a worker, reaches the caller once every
// chunk has finished; the pool keeps working afterwards.
TEST(ThreadPool, ChunkExceptionReachesTheCaller) {
  util::ThreadPool pool(2);
  for (int64_t bad_begin : {int64_t{0}, int64_t{50}}) {  // the caller's chunk, a worker's chunk
    std::atomic<int> finished{0};
    auto body = [&](int64_t b, int64_t) {
      if (b == bad_begin) throw std::runtime_error("chunk failed");
      finished.fetch_add(1);
    };
    EXPECT_THROW(pool.parallel_for(100, 10, body), std::runtime_error);
    EXPECT_EQ(finished.load(), 1);  // the other chunk ran to its end before the rethrow
  }
  std::atomic<int64_t> sum{0};
  pool.parallel_for(100, 10, [&](int64_t b, int64_t e) { sum.fetch_add(e - b); });
  EXPECT_EQ(sum.load(), 100);
}

Session session_for(const test::GraphBuilder& g, const std::string& name) {
  return Session(
      Model::load(test::save_model(test::make_model(g), test::scratch_dir(name), "m.onnx")));
}

// Buffers made during a run count references without atomics while only the run's thread
// can reach them; the outputs a run returns must count atomically again. Here one thread
// feeds an output back into runs that copy and drop it, while another copies it too: the
// count must stay exact.
TEST(ThreadPool, OutputsOfARunCountReferencesAtomically) {
  test::GraphBuilder make;
  make.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  make.node("Neg", {"x"}, {"y"});
  Session maker = session_for(make, "shared_out_make");
  Value y = maker.run({{"x", test::f32({2}, {1, 2})}})[0].second;
  ASSERT_TRUE(y.tensor().unique());

  test::GraphBuilder use;  // copies its input (Identity), then drops the copy after Neg
  use.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  use.node("Identity", {"x"}, {"x_copy"});
  use.node("Neg", {"x_copy"}, {"y"});
  Session user = session_for(use, "shared_out_use");
  {
    const NamedValues inputs{{"x", y}};
    std::thread runs([&] {
      for (int i = 0; i < 200000; ++i) user.run(inputs);
    });
    for (int i = 0; i < 2000000; ++i) {
      Tensor copy = y.tensor();
      (void)copy;
    }
    runs.join();
  }
  EXPECT_TRUE(y.tensor().unique());
}

}  // namespace
}  // namespace bough
