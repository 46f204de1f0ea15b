// SessionPool::try_run, which the gRPC server uses to run a request on the thread that read it
// only when that cannot block: it runs when a session is free, and gives none, without
// waiting, while every session is held. A real Add model; sums worked out by hand. And a
// RunCancel (a gRPC call cancelled by its client) stopping a request's run, or its start.
#include "serve/session_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "bough/error.h"
#include "counting_loop.h"
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

// The pool runs `trips` of the counting loop on its one session with `cancel`; ErrorKind::Stopped
// is expected, and then the session serves again (3 trips: x_final 3).
void expect_stopped_then_serves(SessionPool& pool, int64_t trips, RunCancel& cancel,
                                std::atomic<bool>& inputs_asked) {
  const NamedValues stopped = test::counting_loop_inputs(trips);
  RequestTimes times;
  try {
    pool.run(
        [&]() -> const NamedValues& {
          inputs_asked = true;
          return stopped;
        },
        times, &cancel);
    ADD_FAILURE() << "the run was not stopped";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Stopped) << e.what();
  }
  const NamedValues three = test::counting_loop_inputs(3);
  const NamedValues out = pool.run([&]() -> const NamedValues& { return three; }, times);
  EXPECT_EQ(out.at(0).second.tensor().data<float>()[0], 3.0f);
}

TEST(RunCancel, ARequestCancelledBeforeItsRunDoesNotRun) {
  SessionPool pool(test::counting_loop(), SessionOptions{}, 1, 4, "loop");
  RunCancel cancel;
  cancel.cancel();
  std::atomic<bool> asked{false};
  expect_stopped_then_serves(pool, 3, cancel, asked);
  EXPECT_FALSE(asked);  // refused before its inputs were gathered
}

TEST(RunCancel, CancelStopsTheRunInProgress) {
  SessionPool pool(test::counting_loop(), SessionOptions{}, 1, 4, "loop");
  RunCancel cancel;
  std::atomic<bool> done{false}, asked{false};
  // Once the run has its session (it asks for its inputs then), and not before: a request
  // cancelled before does not run at all. A cancel() that comes as the run starts may be
  // lost (run_cancel.h): keep cancelling until the run has ended. 2^50 trips end only by a
  // stop.
  std::thread canceller([&] {
    while (!done) {
      if (asked) cancel.cancel();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  expect_stopped_then_serves(pool, int64_t{1} << 50, cancel, asked);
  done = true;
  canceller.join();
  EXPECT_TRUE(asked);
}

TEST(RunCancel, CancelAfterTheRunEndedStopsNothing) {
  SessionPool pool(test::counting_loop(), SessionOptions{}, 1, 4, "loop");
  RunCancel first;
  const NamedValues five = test::counting_loop_inputs(5);
  RequestTimes times;
  const NamedValues out = pool.run([&]() -> const NamedValues& { return five; }, times, &first);
  EXPECT_EQ(out.at(0).second.tensor().data<float>()[0], 5.0f);
  first.cancel();  // its run has ended: the session's next run, another request's, goes on
  const NamedValues again = pool.run([&]() -> const NamedValues& { return five; }, times);
  EXPECT_EQ(again.at(0).second.tensor().data<float>()[0], 5.0f);
}

}  // namespace
}  // namespace bough::serve
