// The seedable generator the random operators share (RandomNormal, RandomUniform, their
// -Like forms, Bernoulli, Multinomial). A stream is a 64-bit Mersenne Twister; draws are
// made one after another in element order on the calling thread, so a given seed yields the
// same values whatever the thread count. Values are drawn as doubles and rounded to the
// output's float type.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "bough/tensor.h"

namespace bough::kernels {

class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : gen_(seed) {}
  // Seeded from `seed` when given (the same values on every run), else from
  // std::random_device (new values on every run). Kernels make one per run of theirs, so a
  // seeded node in a Loop body repeats its values on every iteration: a stream lasting a
  // whole session run would need run state in ops::RunContext, which no kernel has yet.
  static RandomStream for_run(std::optional<uint64_t> seed);

  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Standard normal (Box-Muller: each pair of uniforms gives two values).
  double normal();

 private:
  std::mt19937_64 gen_;
  std::optional<double> spare_;  // the second value of the last Box-Muller pair
};

// `v` rounded to the float type `type` (float16, bfloat16, float or double), as a double.
double round_to_type(ElemType type, double v);

// A tensor of `type` (float16, bfloat16, float or double) and `shape`, each element uniform
// in [low, high) after rounding to `type` (a draw that rounds outside is drawn again).
// Throws BadInput when no value of `type` lies in [low, high).
Tensor uniform_tensor(ElemType type, const Dims& shape, double low, double high,
                      RandomStream& stream);
// A tensor of `type` and `shape`, each element normal with `mean` and standard deviation
// `scale`, rounded to `type`.
Tensor normal_tensor(ElemType type, const Dims& shape, double mean, double scale,
                     RandomStream& stream);

}  // namespace bough::kernels
