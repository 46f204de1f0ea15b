// The dynamic batcher with a stand-in for the session pool that records what each run got:
// requests stacked along dim 0 up to max_batch_size rows and split back by rows, a lone
// request run once its delay passes, shapes or types that differ never stacked, a batch's
// failure (a run error, a run stopped, no session) given to each of its requests, and outputs
// that do not split by rows run request by request. Expected values worked out by hand.
#include "serve/batcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bough/error.h"

namespace bough::serve {
namespace {

using Clock = std::chrono::steady_clock;

Tensor floats(Dims shape, const std::vector<float>& values) {
  return Tensor::from_vector(ElemType::Float, std::move(shape), values);
}

std::vector<float> values_of(const Value& v) {
  const Tensor& t = v.tensor();
  return {t.data<float>(), t.data<float>() + t.numel()};
}

// A stand-in for SessionPool::run: counts the runs and records the dim 0 of each run's first
// input and the RunCancel it was given; `model` computes the outputs.
struct FakePool {
  explicit FakePool(std::function<NamedValues(const NamedValues&)> m) : model(std::move(m)) {}

  std::function<NamedValues(const NamedValues&)> model;
  std::mutex mutex;
  std::vector<int64_t> rows;        // per run
  std::vector<RunCancel*> cancels;  // per run

  Batcher::Run runner() {
    return [this](const std::function<const NamedValues&()>& inputs, RequestTimes& times,
                  RunCancel* cancel) {
      const NamedValues& in = inputs();
      {
        std::lock_guard lock(mutex);
        rows.push_back(in.front().second.tensor().dim(0));
        cancels.push_back(cancel);
      }
      times.compute_us = 7;
      return model(in);
    };
  }
  size_t runs() {
    std::lock_guard lock(mutex);
    return rows.size();
  }
};

// y = 2x, for every element.
NamedValues doubled(const NamedValues& in) {
  const Tensor& x = in.front().second.tensor();
  Tensor y(ElemType::Float, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) y.data<float>()[i] = 2 * x.data<float>()[i];
  return {{"y", y}};
}

// Runs `requests` on `batcher` at once, one thread each; gives each one's outputs or error.
struct Outcome {
  NamedValues outputs;
  RequestTimes times;
  std::string error;
  ErrorKind kind = ErrorKind::IO;
};

std::vector<Outcome> run_together(Batcher& batcher, const std::vector<NamedValues>& requests) {
  std::vector<Outcome> outcomes(requests.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < requests.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        outcomes[i].outputs = batcher.run(requests[i], outcomes[i].times);
      } catch (const Error& e) {
        outcomes[i].error = e.what();
        outcomes[i].kind = e.kind();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return outcomes;
}

NamedValues x_of(Dims shape, const std::vector<float>& values) {
  return {{"x", floats(std::move(shape), values)}};
}

TEST(Batcher, StacksRequestsUpToMaxRowsAndSplitsTheOutputsBack) {
  FakePool pool{doubled};
  // A delay far longer than the test: the batch runs because it is full (1+2+3+2 = 8 rows).
  Batcher batcher({8, 60'000'000}, pool.runner());
  const auto start = Clock::now();
  const std::vector<Outcome> got =
      run_together(batcher, {x_of({1, 2}, {1, 2}), x_of({2, 2}, {3, 4, 5, 6}),
                             x_of({3, 2}, {7, 8, 9, 10, 11, 12}), x_of({2, 2}, {13, 14, 15, 16})});
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  ASSERT_EQ(pool.rows, std::vector<int64_t>{8});
  ASSERT_TRUE(got[0].error.empty()) << got[0].error;
  EXPECT_EQ(values_of(got[0].outputs.at(0).second), (std::vector<float>{2, 4}));
  EXPECT_EQ(got[1].outputs.at(0).second.tensor().shape(), (Dims{2, 2}));
  EXPECT_EQ(values_of(got[1].outputs.at(0).second), (std::vector<float>{6, 8, 10, 12}));
  EXPECT_EQ(values_of(got[2].outputs.at(0).second), (std::vector<float>{14, 16, 18, 20, 22, 24}));
  EXPECT_EQ(values_of(got[3].outputs.at(0).second), (std::vector<float>{26, 28, 30, 32}));
  for (const Outcome& o : got) EXPECT_EQ(o.times.compute_us, 7u);
}

TEST(Batcher, ARequestThatWouldOverflowTheBatchStartsAnother) {
  FakePool pool{doubled};
  Batcher batcher({3, 2'000'000}, pool.runner());
  const std::vector<Outcome> got =
      run_together(batcher, {x_of({2, 1}, {1, 2}), x_of({2, 1}, {3, 4}), x_of({1, 1}, {5})});
  // 2 + 2 > 3: the two-row requests are in different batches; the one-row one joins either.
  std::vector<int64_t> rows = pool.rows;
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values_of(got[0].outputs.at(0).second), (std::vector<float>{2, 4}));
  EXPECT_EQ(values_of(got[1].outputs.at(0).second), (std::vector<float>{6, 8}));
  EXPECT_EQ(values_of(got[2].outputs.at(0).second), (std::vector<float>{10}));
}

TEST(Batcher, ARequestRunAloneKeepsItsCancelABatchHasNone) {
  FakePool pool{doubled};
  RunCancel cancel;
  RequestTimes times;
  Batcher unbatched({0, 0}, pool.runner());
  unbatched.run(x_of({1, 1}, {1}), times, &cancel);
  // A batch of two, full at once: its run is shared, so no request's cancel may stop it.
  Batcher batcher({2, 60'000'000}, pool.runner());
  const std::vector<Outcome> got = run_together(batcher, {x_of({1, 1}, {1}), x_of({1, 1}, {2})});
  EXPECT_EQ(pool.rows, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(pool.cancels, (std::vector<RunCancel*>{&cancel, nullptr}));
}

TEST(Batcher, ALoneRequestRunsOnceItsDelayPasses) {
  FakePool pool{doubled};
  Batcher batcher({8, 50'000}, pool.runner());
  RequestTimes times;
  const auto start = Clock::now();
  const NamedValues out = batcher.run(x_of({1, 3}, {1, 2, 3}), times);
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(50));
  EXPECT_GE(times.queue_us, 50'000u);
  EXPECT_EQ(values_of(out.at(0).second), (std::vector<float>{2, 4, 6}));
  // The next request starts a batch of its own.
  batcher.run(x_of({1, 3}, {1, 2, 3}), times);
  EXPECT_EQ(pool.rows, (std::vector<int64_t>{1, 1}));
}

TEST(Batcher, ALoneRequestWithNoDelayRunsAtOnceOnItsOwnThread) {
  // With no delay and no other request, a request runs as it comes, on the thread that made
  // it (no hand-off to another thread), as without batching.
  std::vector<std::thread::id> ran_on;
  Batcher batcher(
      {8, 0}, [&](const std::function<const NamedValues&()>& inputs, RequestTimes&, RunCancel*) {
        ran_on.push_back(std::this_thread::get_id());
        return doubled(inputs());
      });
  RequestTimes times;
  const auto start = Clock::now();
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(values_of(batcher.run(x_of({1, 2}, {1, -2}), times).at(0).second),
              (std::vector<float>{2, -4}));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(ran_on, std::vector<std::thread::id>(3, std::this_thread::get_id()));
}

TEST(Batcher, DifferentShapesOrTypesAreNotStacked) {
  FakePool pool{[](const NamedValues& in) { return NamedValues{{"y", in.front().second}}; }};
  Batcher batcher({8, 300'000}, pool.runner());
  Tensor ints = Tensor::from_vector(ElemType::Int32, Dims{1, 2}, std::vector<int32_t>{1, 2});
  const std::vector<Outcome> got = run_together(batcher, {x_of({1, 2}, {1, 2}),
                                                          x_of({1, 3}, {1, 2, 3}),
                                                          {{"x", ints}},
                                                          {{"other", floats({1, 2}, {1, 2})}}});
  EXPECT_EQ(pool.rows, (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(got[1].outputs.at(0).second.tensor().shape(), (Dims{1, 3}));
  EXPECT_EQ(got[2].outputs.at(0).second.tensor().type(), ElemType::Int32);
}

TEST(Batcher, RequestsThatCannotBatchRunAtOnce) {
  FakePool pool{[](const NamedValues& in) { return NamedValues{{"y", in.front().second}}; }};
  Batcher batcher({4, 60'000'000}, pool.runner());
  RequestTimes times;
  const auto start = Clock::now();
  batcher.run({{"x", floats({5, 1}, {1, 2, 3, 4, 5})}}, times);  // more rows than a batch
  batcher.run({{"x", floats({}, {1})}}, times);                  // no dim 0
  batcher.run({{"x", floats({2, 1}, {1, 2})}, {"z", floats({3, 1}, {1, 2, 3})}},
              times);                               // inputs of different rows
  batcher.run({{"x", floats({0, 2}, {})}}, times);  // no rows
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(pool.runs(), 4u);
}

TEST(Batcher, NoBatchingRunsEachRequestAtOnce) {
  FakePool pool{doubled};
  Batcher batcher({1, 60'000'000}, pool.runner());
  const std::vector<Outcome> got =
      run_together(batcher, {x_of({1, 1}, {1}), x_of({1, 1}, {2}), x_of({1, 1}, {3})});
  EXPECT_EQ(pool.rows, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(values_of(got[2].outputs.at(0).second), (std::vector<float>{6}));
}

TEST(Batcher, AFailedBatchFailsEveryRequest) {
  FakePool pool{[](const NamedValues&) -> NamedValues {
    fail(ErrorKind::BadInput, "main/Add \"add\"", "the batch went wrong");
  }};
  Batcher batcher({3, 60'000'000}, pool.runner());
  const std::vector<Outcome> got =
      run_together(batcher, {x_of({1, 1}, {1}), x_of({1, 1}, {2}), x_of({1, 1}, {3})});
  EXPECT_EQ(pool.rows, std::vector<int64_t>{3});
  for (const Outcome& o : got) {
    EXPECT_EQ(o.error, "main/Add \"add\": the batch went wrong");
    EXPECT_EQ(o.kind, ErrorKind::BadInput);
  }
}

TEST(Batcher, ABatchStoppedByItsTimeLimitStopsEveryRequest) {
  FakePool pool{[](const NamedValues&) -> NamedValues {
    fail(ErrorKind::Stopped, "", "the run took longer than its time limit of 1 s");
  }};
  Batcher batcher({2, 60'000'000}, pool.runner());
  const std::vector<Outcome> got = run_together(batcher, {x_of({1, 1}, {1}), x_of({1, 1}, {2})});
  for (const Outcome& o : got) EXPECT_EQ(o.kind, ErrorKind::Stopped) << o.error;
}

TEST(Batcher, NoSessionForABatchFailsItsRequestsAndClosesIt) {
  std::atomic<bool> busy{true};
  std::atomic<int> runs{0};
  Batcher batcher({2, 60'000'000}, [&](const std::function<const NamedValues&()>& inputs,
                                       RequestTimes&, RunCancel*) {
    // Busy: refused before a session was taken, so inputs() is never called.
    if (busy) fail(ErrorKind::Stopped, "", "busy");
    ++runs;
    return doubled(inputs());
  });
  const std::vector<Outcome> got = run_together(batcher, {x_of({1, 1}, {1}), x_of({1, 1}, {2})});
  for (const Outcome& o : got) EXPECT_EQ(o.error, "busy");
  busy = false;
  const std::vector<Outcome> again = run_together(batcher, {x_of({1, 1}, {3}), x_of({1, 1}, {4})});
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(values_of(again[0].outputs.at(0).second), (std::vector<float>{6}));
  EXPECT_EQ(values_of(again[1].outputs.at(0).second), (std::vector<float>{8}));
}

TEST(Batcher, OutputsThatDoNotSplitByRowsRunRequestByRequest) {
  // total = the sum of x, a scalar: no rows to split.
  FakePool pool{[](const NamedValues& in) {
    const Tensor& x = in.front().second.tensor();
    float sum = 0;
    for (int64_t i = 0; i < x.numel(); ++i) sum += x.data<float>()[i];
    return NamedValues{{"total", floats({}, {sum})}};
  }};
  Batcher batcher({2, 60'000'000}, pool.runner());
  const std::vector<Outcome> got =
      run_together(batcher, {x_of({1, 2}, {1, 2}), x_of({1, 2}, {10, 20})});
  // The batch of two ran, then each request alone.
  EXPECT_EQ(pool.rows, (std::vector<int64_t>{2, 1, 1}));
  std::vector<float> totals{values_of(got[0].outputs.at(0).second).at(0),
                            values_of(got[1].outputs.at(0).second).at(0)};
  EXPECT_EQ(totals, (std::vector<float>{3, 30}));
  // And from then on no request waits for a batch.
  RequestTimes times;
  batcher.run(x_of({1, 2}, {1, 1}), times);
  EXPECT_EQ(pool.runs(), 4u);
}

TEST(Batcher, StacksStrings) {
  FakePool pool{[](const NamedValues& in) { return NamedValues{{"y", in.front().second}}; }};
  Batcher batcher({2, 60'000'000}, pool.runner());
  auto strings = [](std::vector<std::string> s) {
    return NamedValues{{"s", Tensor::from_vector(ElemType::String, Dims{1, 2}, s)}};
  };
  const std::vector<Outcome> got =
      run_together(batcher, {strings({"a", "bc"}), strings({"", "def"})});
  EXPECT_EQ(pool.rows, std::vector<int64_t>{2});
  for (size_t i = 0; i < 2; ++i) {
    const Tensor& t = got[i].outputs.at(0).second.tensor();
    ASSERT_EQ(t.shape(), (Dims{1, 2}));
    EXPECT_EQ(
        std::vector<std::string>(t.strings(), t.strings() + 2),
        i == 0 ? (std::vector<std::string>{"a", "bc"}) : (std::vector<std::string>{"", "def"}));
  }
}

}  // namespace
}  // namespace bough::serve
