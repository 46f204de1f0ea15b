// SessionOptions::threads: 0, the default, is one thread per physical core (ONNX Runtime's
// intra_op_num_threads = 0); 1 is the caller's thread alone; a count is that many; negative is
// refused. Every count gives the same sums.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"
#include "util/cpu_cores.h"

namespace bough {
namespace {

// a + b over 2^19 floats: large enough for the cost rule to split it over threads.
constexpr int64_t kN = int64_t{1} << 19;

std::string add_model() {
  test::GraphBuilder g;
  g.input("a", ElemType::Float, {kN}).input("b", ElemType::Float, {kN});
  g.output("y", ElemType::Float, {kN});
  g.node("Add", {"a", "b"}, {"y"});
  return test::save_model(test::make_model(g), test::scratch_dir("session_threads"), "m.onnx");
}

void expect_sums(Session& session) {
  std::vector<float> a(kN), b(kN);
  for (int64_t i = 0; i < kN; ++i) {
    a[static_cast<size_t>(i)] = static_cast<float>(i % 1000);
    b[static_cast<size_t>(i)] = 0.25f * static_cast<float>(i % 9);
  }
  const Tensor y =
      session.run({{"a", test::f32({kN}, a)}, {"b", test::f32({kN}, b)}})[0].second.tensor();
  int64_t wrong = 0;
  for (int64_t i = 0; i < kN; ++i)
    wrong += y.data<float>()[i] != a[static_cast<size_t>(i)] + b[static_cast<size_t>(i)];
  EXPECT_EQ(wrong, 0) << session.threads() << " threads";
}

TEST(SessionThreads, TheDefaultIsOnePerPhysicalCore) {
  const std::string path = add_model();
  EXPECT_EQ(SessionOptions().threads, 0);
  Session by_default(Model::load(path));
  EXPECT_EQ(by_default.threads(), util::physical_cores());
  expect_sums(by_default);
  Session zero(Model::load(path), SessionOptions{0});
  EXPECT_EQ(zero.threads(), util::physical_cores());
}

TEST(SessionThreads, ACountIsThatMany) {
  const std::string path = add_model();
  for (int threads : {1, 2, 3}) {
    Session session(Model::load(path), SessionOptions{threads});
    EXPECT_EQ(session.threads(), threads);
    expect_sums(session);
  }
}

// The first runs of a node alternate between the calling thread alone and split
// (exec/thread_choice.h), and so do its runs after a twofold change of size: every one of them
// gives the same sums.
TEST(SessionThreads, EveryRunWhileChoosingGivesTheSameSums) {
  Session session(Model::load(add_model()), SessionOptions{2});
  for (int run = 0; run < 12; ++run) expect_sums(session);
}

TEST(SessionThreads, NegativeIsRefused) {
  const std::string path = add_model();
  try {
    Session session(Model::load(path), SessionOptions{-1});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(e.message(),
              "SessionOptions::threads must be 0 (one per physical core) or more, got -1");
  }
}

}  // namespace
}  // namespace bough
