// What the convolution path tests share (conv_paths_test.cc, conv_depthwise_test.cc): a random
// case, each path's kernel run on it, and the check against a plain loop in double over every
// output, filter tap and channel. Operands are uniform in [-1, 1]; a float sum of n products
// differs from the exact one by at most about n * FLT_EPSILON * sum |x w|, and the check allows
// (n + 2) times that.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "kernels/conv_crop.h"
#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_few_positions.h"
#include "kernels/conv_tiles.h"
#include "kernels/conv_winograd.h"
#include "reference.h"

namespace bough::kernels::conv_test {

using test::Rng;

struct ConvCase {
  Window win;
  int64_t C = 1, M = 1, groups = 1;
  std::vector<float> x, w, bias;
  ConvEpilogue epilogue;
};

inline std::vector<float> random_vector(int64_t size, Rng& rng) {
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = static_cast<float>(rng.real(-1, 1));
  return v;
}

// Any activation: those the direct and Winograd kernels apply in registers and those they
// apply over each row after it (ConvEpilogue::in_registers).
inline ConvEpilogue random_epilogue(Rng& rng) {
  const Activation acts[] = {Activation::None,      Activation::Relu,
                             Activation::LeakyRelu, Activation::Clip,
                             Activation::Sigmoid,   Activation::HardSigmoid,
                             Activation::HardSwish, Activation::ClipHardSwish};
  ConvEpilogue e;
  e.activation = acts[rng.uniform(0, 7)];
  e.alpha = e.activation == Activation::Clip ? -0.5f : 0.1f;
  e.beta = 0.5f;
  return e;
}

// A case whose output has the sizes `out` (one per spatial dimension), with random kernel
// sizes up to max_kernel, strides, dilations and pads; the input size follows from them.
inline ConvCase random_case(Rng& rng, const std::vector<int64_t>& out, int64_t max_kernel,
                            int64_t C, int64_t M, int64_t groups) {
  ConvCase c;
  c.C = C;
  c.M = M;
  c.groups = groups;
  WindowAttrs attrs;
  std::vector<int64_t> in, kernel;
  const size_t rank = out.size();
  attrs.pads.resize(2 * rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t k = rng.uniform(1, max_kernel), s = rng.uniform(1, 3),
                  dil = k > 1 ? rng.uniform(1, 2) : 1;
    int64_t pb = rng.uniform(0, std::min<int64_t>(2, (k - 1) * dil)), pe = rng.uniform(0, pb);
    // The input that gives `out[d]` positions (plus a remainder the last stride skips).
    int64_t size = (out[d] - 1) * s + (k - 1) * dil + 1 - pb - pe;
    if (size < 1) {  // windows reaching into the padding only: no padding then
      pb = pe = 0;
      size = (out[d] - 1) * s + (k - 1) * dil + 1;
    }
    in.push_back(size + rng.uniform(0, s - 1));
    kernel.push_back(k);
    attrs.strides.push_back(s);
    attrs.dilations.push_back(dil);
    attrs.pads[d] = pb;
    attrs.pads[rank + d] = pe;
  }
  c.win = resolve_window(attrs, in, kernel);
  EXPECT_EQ(c.win.out, out);
  c.x = random_vector(C * c.win.in_numel(), rng);
  c.w = random_vector(M * (C / groups) * c.win.kernel_numel(), rng);
  if (rng.chance(0.7)) c.bias = random_vector(M, rng);
  c.epilogue = random_epilogue(rng);
  return c;
}

// Expects y to be the case's convolution within the bound above.
inline void expect_conv(const ConvCase& c, const std::vector<float>& y) {
  const Window& win = c.win;
  const size_t rank = win.rank();
  const int64_t P = win.out_numel(), K = win.kernel_numel(), in = win.in_numel();
  const int64_t cg = c.C / c.groups, mg = c.M / c.groups;
  std::vector<int64_t> o(rank), k(rank);
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t p = 0; p < P; ++p) {
      for (size_t d = rank, q = static_cast<size_t>(p); d-- > 0;) {
        o[d] = static_cast<int64_t>(q) % win.out[d];
        q /= static_cast<size_t>(win.out[d]);
      }
      double sum = 0, magnitude = 0;
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t t = 0; t < K; ++t) {
          for (size_t d = rank, q = static_cast<size_t>(t); d-- > 0;) {
            k[d] = static_cast<int64_t>(q) % win.kernel[d];
            q /= static_cast<size_t>(win.kernel[d]);
          }
          int64_t at = 0;
          for (size_t d = 0; d < rank && at >= 0; ++d) {
            const int64_t i = o[d] * win.stride[d] - win.pad_begin[d] + k[d] * win.dilation[d];
            at = i < 0 || i >= win.in[d] ? -1 : at * win.in[d] + i;
          }
          if (at < 0) continue;
          const int64_t channel = m / mg * cg + ci;
          const double prod = double{c.x[static_cast<size_t>(channel * in + at)]} *
                              c.w[static_cast<size_t>((m * cg + ci) * K + t)];
          sum += prod;
          magnitude += std::abs(prod);
        }
      if (!c.bias.empty()) sum += c.bias[static_cast<size_t>(m)];
      double bound = static_cast<double>(cg * K + 2) * FLT_EPSILON * (magnitude + 1);
      const ConvEpilogue& e = c.epilogue;
      switch (e.activation) {
        case Activation::Relu:
          sum = std::max(sum, 0.0);
          break;
        case Activation::LeakyRelu:
          sum = sum < 0 ? e.alpha * sum : sum;
          break;
        case Activation::Clip:
          sum = std::clamp(sum, double{e.alpha}, double{e.beta});
          break;
        case Activation::Sigmoid:
          // Its slope is at most 1/4; fast_sigmoid adds at most 3 ulp (kernels/fast_math.h).
          sum = 1 / (1 + std::exp(-sum));
          bound = bound / 4 + 4 * FLT_EPSILON * sum;
          break;
        case Activation::HardSigmoid:
          // max(0, min(1, alpha * x + beta)): slope alpha, and a rounding of its own.
          sum = std::clamp(double{e.alpha} * sum + e.beta, 0.0, 1.0);
          bound = bound * std::abs(e.alpha) + 2 * FLT_EPSILON;
          break;
        case Activation::HardSwish:
        case Activation::ClipHardSwish:
          // x * max(0, min(1, x / 6 + 1/2)): slope at most 3/2 (at x = 3), and three
          // roundings of its own.
          sum = sum * std::clamp(sum / 6 + 0.5, 0.0, 1.0);
          bound = bound * 1.5 + 4 * FLT_EPSILON * std::abs(sum);
          break;
        default:
          break;
      }
      ASSERT_NEAR(y[static_cast<size_t>(m * P + p)], sum, bound)
          << "output channel " << m << ", position " << p << " of " << P << ", C " << c.C << ", M "
          << c.M << ", groups " << c.groups << ", taps " << K;
    }
}

inline std::vector<float> run_tiles(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  conv_tiles_f32(c.x.data(), c.w.data(), y.data(), c.win, c.C, c.M, c.groups,
                 c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

inline std::vector<float> run_few_positions(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const PackedB wt = pack_filter_transposed(c.w.data(), c.M, c.C * c.win.kernel_numel());
  conv_few_positions_f32(c.x.data(), wt, y.data(), c.win, c.C,
                         c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

inline std::vector<float> run_direct(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const std::vector<float> blocked =
      block_filter(c.w.data(), c.M, c.C * c.win.kernel_numel(), conv_direct_block(c.win.out[1]));
  conv_direct_f32(c.x.data(), blocked.data(), y.data(), c.win, c.C, c.M,
                  c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

inline std::vector<float> run_depthwise(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  conv_depthwise_f32(c.x.data(), c.w.data(), y.data(), c.win, c.C, c.M,
                     c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

inline std::vector<float> run_winograd(const ConvCase& c, int64_t tile, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const WinogradForm form = winograd_form(c.win.out, tile);
  const std::vector<float> filter = winograd_filter(c.w.data(), c.M, c.C, form);
  conv_winograd_f32(c.x.data(), filter.data(), form, y.data(), c.win, c.C, c.M,
                    c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

// Output sizes of `rank` dimensions whose product is at most max_positions.
inline std::vector<int64_t> random_out(Rng& rng, size_t rank, int64_t max_positions) {
  std::vector<int64_t> out;
  int64_t left = max_positions;
  for (size_t d = 0; d < rank; ++d) {
    out.push_back(rng.uniform(1, left));
    left /= out.back();
  }
  return out;
}

// The case with its filter cropped to the taps of `crop` (its weights finite).
inline ConvCase cropped(const ConvCase& c, const TapCrop& crop) {
  ConvCase cut = c;
  cut.win = cropped_window(c.win, crop);
  cut.w.resize(static_cast<size_t>(c.M * (c.C / c.groups) * cut.win.kernel_numel()));
  EXPECT_TRUE(crop_filter(c.w.data(), c.M * (c.C / c.groups), c.win, crop, cut.w.data()));
  return cut;
}

}  // namespace bough::kernels::conv_test
