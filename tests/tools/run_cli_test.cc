// `bough run` prints each output's type and its first values.
#include <gtest/gtest.h>

#include <limits>

#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

TEST(RunCli, Uint64ValuesAboveTwoToThe63PrintUnsigned) {
  test::GraphBuilder g;
  g.output("y", ElemType::UInt64, {2});
  auto& n = g.node("Constant", {}, {"y"}, "k");
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  test::set_tensor(n, "value", Tensor::from_vector<uint64_t>(ElemType::UInt64, Dims{2}, {max, 7}));
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("run_cli"), "m.onnx");
  std::string out;
  ASSERT_EQ(test::run_cli("run " + path, &out), 0) << out;
  EXPECT_NE(out.find("[18446744073709551615, 7]"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough
