// Shared by the tests of older operator versions (older_versions_test.cc,
// older_versions_nn_test.cc): one node run at a given opset, and its output checked against
// hand-worked values.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_builder.h"

namespace bough::test {

inline std::vector<Tensor> run_older(const std::string& op, const NamedTensors& ins, int outputs,
                                     const Attrs& attrs, int64_t opset) {
  return run_node(op, ins, outputs, attrs, opset, "older_versions");
}

inline void expect_tensor(const Tensor& t, const Dims64& dims, const std::vector<double>& want,
                          double tolerance = 1e-6) {
  EXPECT_EQ(t.shape(), Dims(std::span<const int64_t>(dims)));
  const std::vector<double> got = doubles_of(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tolerance) << "element " << i;
}

}  // namespace bough::test
