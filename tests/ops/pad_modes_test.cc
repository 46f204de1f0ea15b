// Pad's reflect, edge and wrap modes (rows copied in one piece, the padding read through
// per-column index maps, the source row followed without divisions) against a reference loop
// that mirrors each coordinate by the definition, on random ranks, shapes and pads (negative
// ones crop), at 1 and 2 threads, with NaN and infinities copied bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "model_builder.h"
#include "reference.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// The input coordinate output coordinate c reads along an axis of n with `before` in front.
int64_t source(int64_t c, int64_t n, int64_t before, const std::string& mode) {
  int64_t i = c - before;
  if (mode == "edge") return std::min(std::max<int64_t>(i, 0), n - 1);
  if (mode == "wrap") {
    while (i < 0) i += n;
    while (i >= n) i -= n;
    return i;
  }
  if (n == 1) return 0;  // reflect: bounce between 0 and n - 1
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

TEST(PadModes, MatchReferenceLoopAtOneAndTwoThreads) {
  test::Rng rng(909);
  const char* modes[] = {"reflect", "edge", "wrap"};
  for (int trial = 0; trial < 36; ++trial) {
    SCOPED_TRACE(trial);
    const std::string mode = modes[trial % 3];
    const size_t rank = static_cast<size_t>(rng.uniform(1, 4));
    Dims shape;
    std::vector<int64_t> pads(2 * rank);
    for (size_t d = 0; d < rank; ++d) {
      shape.push_back(rng.uniform(mode == "reflect" ? 2 : 1, d + 1 == rank ? 40 : 5));
      const int64_t reach = mode == "reflect" ? shape[d] - 1 : shape[d];  // the op's limit
      pads[d] = rng.uniform(-std::min<int64_t>(reach, 1), std::min<int64_t>(reach, 3));
      pads[rank + d] = rng.uniform(0, std::min<int64_t>(reach, 3));
    }
    Tensor x = test::random_floats(shape, rng);
    x.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    x.data<float>()[x.numel() - 1] = std::numeric_limits<float>::infinity();
    Dims out;
    for (size_t d = 0; d < rank; ++d) out.push_back(shape[d] + pads[d] + pads[rank + d]);
    std::vector<float> want;
    const std::vector<float> xs = floats_of(x);
    int64_t total = 1;
    for (int64_t o : out) total *= o;
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t rest = flat, src = 0, stride = 1;
      for (size_t d = rank; d-- > 0;) {
        const int64_t c = rest % out[d];
        rest /= out[d];
        src += source(c, shape[d], pads[d], mode) * stride;
        stride *= shape[d];
      }
      want.push_back(xs[static_cast<size_t>(src)]);
    }
    const Tensor want_t = f32(test::Dims64(out.begin(), out.end()), want);
    for (int threads : {1, 2}) {
      const auto y = test::run_node(
          "Pad",
          {{"x", x},
           {"pads",
            test::tensor_of<int64_t>(ElemType::Int64, Dims{2 * static_cast<int64_t>(rank)},
                                     [&](int64_t i) { return pads[static_cast<size_t>(i)]; })}},
          1, [mode](onnxpb::NodeProto& n) { test::set_string(n, "mode", mode); }, 19, "pad_modes",
          threads);
      EXPECT_TRUE(test::bitwise_equal(y[0], want_t)) << mode << ", threads " << threads;
    }
  }
}

}  // namespace
}  // namespace bough
