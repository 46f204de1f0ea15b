// kernels::for_each_pool_row: every output row of every plane exactly once, with the plane,
// the output row and the image rows its windows cover, worked out by hand below.
#include "kernels/pool_window.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace bough::kernels {
namespace {

struct Call {
  int64_t plane_offset, out_offset, padded, plane_index;
  std::vector<int64_t> image_rows;
};

TEST(ForEachPoolRow, VisitsEveryRowOfEveryPlaneOnce) {
  // x [2, 3, 4, 5]: 6 planes of 4 x 5. A 2 x 2 window, stride 1, one row of padding on top:
  // 4 output rows of 4, so output row q of plane p starts at p * 16 + q * 4, and its
  // windows cover image rows q - 1 and q (offsets 5 (q - 1) and 5 q), both inside the padded
  // extent; row -1 is padding.
  WindowAttrs attrs;
  attrs.kernel = {2, 2};
  attrs.pads = {1, 0, 0, 0};
  const Tensor x = Tensor::zeros(ElemType::Float, Dims{2, 3, 4, 5});
  const Window w = pool_window(attrs, x.shape());
  ASSERT_EQ(pooled_shape(x.shape(), w), (std::vector<int64_t>{2, 3, 4, 4}));
  Tensor y(ElemType::Float, Dims{2, 3, 4, 4});
  const PoolWindows win(w);
  for (int threads : {1, 3}) {
    util::ThreadPool pool(threads);
    std::mutex m;
    std::map<int64_t, Call> calls;  // by output offset
    int64_t count = 0;
    for_each_pool_row<float>(x, y, w, win, pool,
                             [&](const float* plane, float* out, std::span<const int64_t> rows,
                                 int64_t padded, int64_t pl) {
                               std::lock_guard<std::mutex> lock(m);
                               ++count;
                               calls[out - y.data<float>()] =
                                   Call{plane - x.data<float>(), out - y.data<float>(), padded, pl,
                                        std::vector<int64_t>(rows.begin(), rows.end())};
                             });
    EXPECT_EQ(count, 6 * 4) << threads << " threads";
    ASSERT_EQ(calls.size(), 6u * 4);
    for (int64_t p = 0; p < 6; ++p)
      for (int64_t q = 0; q < 4; ++q) {
        const Call& c = calls[p * 16 + q * 4];
        EXPECT_EQ(c.plane_index, p);
        EXPECT_EQ(c.plane_offset, p * 20);
        EXPECT_EQ(c.padded, 2);
        const std::vector<int64_t> rows =
            q == 0 ? std::vector<int64_t>{0} : std::vector<int64_t>{5 * (q - 1), 5 * q};
        EXPECT_EQ(c.image_rows, rows) << "plane " << p << ", row " << q;
      }
  }
}

}  // namespace
}  // namespace bough::kernels
