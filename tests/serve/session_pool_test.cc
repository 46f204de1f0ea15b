// SessionPool::try_run, which the gRPC server uses to run a request on the thread that read it
// only when that cannot block: it runs when a session is free, and gives none, without
// waiting, while every session is held. A real Add model; sums worked out by hand.
#include "serve/session_pool.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "model_builder.h"

namespace bough::serve {
namespace {

Model add_model() {
  test::GraphBuilder g;
  g.input("a", ElemType::Float, {3}).input("b", ElemType::Float, {3});
  g.output("sum", ElemType::Float, {3});
  g.node("Add", {"a", "b"}, {"sum"});
  return Model::load_bytes(test::make_model(g).SerializeAsString(), "add");
}

NamedValues inputs() {
  return {{"a", Tensor::from_vector(ElemType::Float, {3}, std::vector<float>{1, 2, 3})},
          {"b", Tensor::from_vector(ElemType::Float, {3}, std::vector<float>{10, 20, 30})}};
}

std::vector<float> sum_of(const NamedValues& outputs) {
  const Tensor& t = outputs.at(0).second.tensor();
  return {t.data<float>(), t.data<float>() + t.numel()};
}

TEST(SessionPool, TryRunRunsOnAFreeSessionAndGivesNoneWhileAllAreHeld) {
  SessionPool pool(add_model(), SessionOptions{}, 1, 4, "add");
  const NamedValues in = inputs();
  RequestTimes times;
  const std::optional<NamedValues> free_run =
      pool.try_run([&]() -> const NamedValues& { return in; }, times);
  ASSERT_TRUE(free_run.has_value());
  EXPECT_EQ(sum_of(*free_run), (std::vector<float>{11, 22, 33}));

  // Another thread holds the one session: its inputs are asked for once it holds it.
  std::mutex mutex;
  std::condition_variable changed;
  bool held = false, release = false;
  std::thread holder([&] {
    RequestTimes holder_times;
    pool.run(
        [&]() -> const NamedValues& {
          std::unique_lock lock(mutex);
          held = true;
          changed.notify_all();
          changed.wait(lock, [&] { return release; });
          return in;
        },
        holder_times);
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return held; });
  }
  bool asked = false;
  EXPECT_FALSE(pool.try_run(
                       [&]() -> const NamedValues& {
                         asked = true;
                         return in;
                       },
                       times)
                   .has_value());
  EXPECT_FALSE(asked);
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  changed.notify_all();
  holder.join();
  const std::optional<NamedValues> again =
      pool.try_run([&]() -> const NamedValues& { return in; }, times);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(sum_of(*again), (std::vector<float>{11, 22, 33}));
}

}  // namespace
}  // namespace bough::serve
