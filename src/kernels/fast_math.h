// Vectorizable float approximations of transcendental functions where libm's scalar calls
// dominate a kernel (glibc's tanhf costs some 40 ns per element).
#pragma once

#include <algorithm>
#include <cmath>

namespace bough::kernels {

// tanh(x) for float as a 13/6 rational approximation on [-7.9, 7.9] (outside it tanh is
// ±1 in float); absolute error below 1e-6. Coefficients as in Eigen's ptanh_float.
inline float fast_tanh(float x) {
  constexpr float kClamp = 7.90531110763549805f;
  const float c = std::min(std::max(x, -kClamp), kClamp);
  const float x2 = c * c;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 - 8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  p *= c;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  // Tiny inputs: tanh(x) = x to float precision, and the ratio would lose the low bits.
  // The division is unconditional so that loops over this vectorize (a conditional
  // division might trap, so GCC will not if-convert it).
  const float r = p / q;
  return std::abs(x) < 4e-4f ? x : r;
}

}  // namespace bough::kernels
