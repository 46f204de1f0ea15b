// One-dimensional discrete Fourier transforms of any length, in double precision: radix-2
// for powers of two, Bluestein's chirp-z (through a power-of-two transform) otherwise.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace bough::kernels {

class FftPlan {
 public:
  // A transform of length n >= 1; `inverse` flips the sign of the exponent (no 1/n scaling).
  FftPlan(int64_t n, bool inverse);
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  int64_t size() const { return n_; }
  // out[k] = sum_t in[t] * exp(∓2πi·k·t/n); `in` and `out` hold n values and may be the same.
  // Uses `scratch`, which it resizes as needed (one per thread).
  void run(const std::complex<double>* in, std::complex<double>* out,
           std::vector<std::complex<double>>& scratch) const;

 private:
  void radix2(std::complex<double>* data) const;  // in place, length n_ (a power of two)

  int64_t n_;
  bool pow2_;
  std::vector<std::complex<double>> twiddle_;  // radix-2 roots for n_ (power of two)
  std::vector<int64_t> bitrev_;
  // Bluestein: chirp w[t] = exp(∓πi t²/n), and the transformed conjugate chirp of length m_.
  std::vector<std::complex<double>> chirp_, chirp_fft_;
  std::unique_ptr<FftPlan> forward_m_, inverse_m_;
};

}  // namespace bough::kernels
