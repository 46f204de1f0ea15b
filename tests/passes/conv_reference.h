// The reference convolution loop the pass tests check fused and folded convolutions against,
// and the run of a model whose output they compare with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bough/session.h"
#include "model_builder.h"

namespace bough::test {

// A convolution by its definition, in double: y[n][m][o...] = b[m] + sum over the group's
// channels c and taps k of w[m][c][k] x[n][g*cg + c][o*s - pad + k*d] (0 outside), ranks 1-3
// (missing leading spatial dimensions of size 1).
inline std::vector<double> reference_conv(const std::vector<float>& x, const std::vector<float>& w,
                                          const std::vector<float>& b, int64_t N, int64_t C,
                                          int64_t M, int64_t groups, const Dims64& in,
                                          const Dims64& k, const Dims64& s, const Dims64& d,
                                          const Dims64& pad, Dims64& out) {
  const size_t r = in.size();
  Dims64 I(3, 1), K(3, 1), S(3, 1), D(3, 1), Pd(3, 0), O(3, 1);
  out.assign(r, 0);
  for (size_t i = 0; i < r; ++i) {
    const size_t j = 3 - r + i;
    I[j] = in[i], K[j] = k[i], S[j] = s[i], D[j] = d[i], Pd[j] = pad[i];
    O[j] = out[i] = (in[i] + pad[i] + pad[r + i] - (k[i] - 1) * d[i] - 1) / s[i] + 1;
  }
  const int64_t cg = C / groups, mg = M / groups;
  std::vector<double> y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t o0 = 0; o0 < O[0]; ++o0)
        for (int64_t o1 = 0; o1 < O[1]; ++o1)
          for (int64_t o2 = 0; o2 < O[2]; ++o2) {
            double acc = b.empty() ? 0.0 : b[static_cast<size_t>(m)];
            for (int64_t c = 0; c < cg; ++c)
              for (int64_t k0 = 0; k0 < K[0]; ++k0)
                for (int64_t k1 = 0; k1 < K[1]; ++k1)
                  for (int64_t k2 = 0; k2 < K[2]; ++k2) {
                    const int64_t i0 = o0 * S[0] - Pd[0] + k0 * D[0];
                    const int64_t i1 = o1 * S[1] - Pd[1] + k1 * D[1];
                    const int64_t i2 = o2 * S[2] - Pd[2] + k2 * D[2];
                    if (i0 < 0 || i0 >= I[0] || i1 < 0 || i1 >= I[1] || i2 < 0 || i2 >= I[2])
                      continue;
                    const int64_t ch = (m / mg) * cg + c;
                    acc += double(w[static_cast<size_t>(
                               (((m * cg + c) * K[0] + k0) * K[1] + k1) * K[2] + k2)]) *
                           x[static_cast<size_t>((((n * C + ch) * I[0] + i0) * I[1] + i1) * I[2] +
                                                 i2)];
                  }
            y.push_back(acc);
          }
  return y;
}

// The first output of the model at `path` run on `x` (its input "x") at one optimization level
// and thread count, as floats: what the tests compare with the reference loop at each level.
inline std::vector<float> run_conv_model(const std::string& path, const Tensor& x,
                                         Optimization level, int threads) {
  SessionOptions options;
  options.optimization = level;
  options.threads = threads;
  Session session(Model::load(path), options);
  return floats_of(session.run({{"x", Value(x)}})[0].second.tensor());
}

}  // namespace bough::test
