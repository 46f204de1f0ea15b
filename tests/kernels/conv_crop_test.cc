// kernels/conv_crop.h: which kernel taps read only the padding, the window without them and
// the filter cropped to the rest, on hand-worked cases. Tap t of an axis reads image
// position o * stride + t * dilation - pad_begin for each output position o.
#include "kernels/conv_crop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace bough::kernels {
namespace {

struct Axis {
  int64_t in, k, s, dil, pb, pe;
};

Window window_of(const std::vector<Axis>& axes) {
  WindowAttrs attrs;
  std::vector<int64_t> in, kernel, pe;
  for (const Axis& a : axes) {
    in.push_back(a.in);
    kernel.push_back(a.k);
    attrs.strides.push_back(a.s);
    attrs.dilations.push_back(a.dil);
    attrs.pads.push_back(a.pb);
    pe.push_back(a.pe);
  }
  attrs.pads.insert(attrs.pads.end(), pe.begin(), pe.end());
  return resolve_window(attrs, in, kernel);
}

// One axis: the taps kept, and the cropped window's kernel and pads.
void expect_axis(const Axis& a, int64_t begin, int64_t end, int64_t pb, int64_t pe) {
  const Window win = window_of({a});
  const TapCrop crop = dead_tap_crop(win);
  EXPECT_EQ(crop.begin, std::vector<int64_t>{begin});
  EXPECT_EQ(crop.end, std::vector<int64_t>{end});
  EXPECT_EQ(crop.crops(win), begin > 0 || end < a.k);
  const Window cut = cropped_window(win, crop);
  EXPECT_EQ(cut.kernel, std::vector<int64_t>{end - begin});
  EXPECT_EQ(cut.pad_begin, std::vector<int64_t>{pb});
  EXPECT_EQ(cut.pad_end, std::vector<int64_t>{pe});
  EXPECT_EQ(cut.out, win.out);
}

TEST(ConvCrop, DeadTapsOfSmallMaps) {
  {
    SCOPED_TRACE("3 taps, pads 1, on 1 position: taps 0 and 2 read -1 and 1");
    expect_axis({1, 3, 1, 1, 1, 1}, 1, 2, 0, 0);
  }
  {
    SCOPED_TRACE("5 taps, pads 2, on 2 positions: tap 0 reads -2, -1; tap 4 reads 2, 3");
    expect_axis({2, 5, 1, 1, 2, 2}, 1, 4, 1, 1);
  }
  {
    SCOPED_TRACE("5 taps, pads 2, on 3 positions: tap 0 reads 0 for output 2");
    expect_axis({3, 5, 1, 1, 2, 2}, 0, 5, 2, 2);
  }
  {
    SCOPED_TRACE("3 taps, pads 1, on 20 positions: nothing dropped");
    expect_axis({20, 3, 1, 1, 1, 1}, 0, 3, 1, 1);
  }
  {
    SCOPED_TRACE("3 taps, stride 2, pads 1, on 2 positions: output 0 only; tap 0 reads -1");
    expect_axis({2, 3, 2, 1, 1, 1}, 1, 3, 0, 1);
  }
  {
    SCOPED_TRACE("3 taps, dilation 2, pads 2, on 1 position: taps read -2, 0, 2");
    expect_axis({1, 3, 1, 2, 2, 2}, 1, 2, 0, 0);
  }
  {
    SCOPED_TRACE(
        "2 taps, dilation 2, stride 3, pads 1/0, on 2 positions: tap 0 reads -1, "
        "but pad 1 is less than a dilation: kept");
    expect_axis({2, 2, 3, 2, 1, 0}, 0, 2, 1, 0);
  }
  {
    SCOPED_TRACE(
        "2 taps, dilation 2, pads 0/1, on 2 positions: tap 1 reads 2, but pad 1 is "
        "less than a dilation: kept");
    expect_axis({2, 2, 1, 2, 0, 1}, 0, 2, 0, 1);
  }
  {
    SCOPED_TRACE("2 taps, dilation 2, pads 1, on 1 position: both read padding: all kept");
    expect_axis({1, 2, 1, 2, 1, 1}, 0, 2, 1, 1);
  }
}

// Two axes: rows cropped (a 1-row map), columns not; the filter of two 3x3 kernels keeps
// their middle rows, and reports a dropped weight that is not finite.
TEST(ConvCrop, FilterKeepsTheLiveTapsOfEveryKernel) {
  const Window win = window_of({{1, 3, 1, 1, 1, 1}, {6, 3, 1, 1, 1, 1}});
  const TapCrop crop = dead_tap_crop(win);
  EXPECT_EQ(crop.begin, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(crop.end, (std::vector<int64_t>{2, 3}));
  std::vector<float> w(18);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  std::vector<float> cut(6, -1.0f);
  EXPECT_TRUE(crop_filter(w.data(), 2, win, crop, cut.data()));
  EXPECT_EQ(cut, (std::vector<float>{3, 4, 5, 12, 13, 14}));
  for (float bad : {INFINITY, -INFINITY, NAN}) {
    std::vector<float> v = w;
    v[15] = bad;  // the second kernel's last row
    EXPECT_FALSE(crop_filter(v.data(), 2, win, crop, cut.data()));
    v = w;
    v[4] = bad;  // a kept weight: the crop stays exact
    EXPECT_TRUE(crop_filter(v.data(), 2, win, crop, cut.data()));
  }
  const std::vector<double> wd(w.begin(), w.end());
  std::vector<double> cutd(6);
  EXPECT_TRUE(crop_filter(wd.data(), 2, win, crop, cutd.data()));
  EXPECT_EQ(cutd, (std::vector<double>{3, 4, 5, 12, 13, 14}));
}

}  // namespace
}  // namespace bough::kernels
