#include "kernels/fft.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace bough::kernels {

namespace {

bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

std::complex<double> unit(double angle) { return {std::cos(angle), std::sin(angle)}; }

}  // namespace

FftPlan::FftPlan(int64_t n, bool inverse) : n_(n), pow2_(is_pow2(n)) {
  const double sign = inverse ? 1.0 : -1.0;
  const double pi = std::numbers::pi;
  if (pow2_) {
    twiddle_.resize(static_cast<size_t>(n / 2));
    for (int64_t k = 0; k < n / 2; ++k)
      twiddle_[static_cast<size_t>(k)] =
          unit(sign * 2 * pi * static_cast<double>(k) / static_cast<double>(n));
    bitrev_.resize(static_cast<size_t>(n));
    int bits = 0;
    while ((int64_t{1} << bits) < n) ++bits;
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = 0;
      for (int b = 0; b < bits; ++b)
        if (i & (int64_t{1} << b)) r |= int64_t{1} << (bits - 1 - b);
      bitrev_[static_cast<size_t>(i)] = r;
    }
    return;
  }
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  forward_m_ = std::make_unique<FftPlan>(m, false);
  inverse_m_ = std::make_unique<FftPlan>(m, true);
  chirp_.resize(static_cast<size_t>(n));
  for (int64_t t = 0; t < n; ++t) {
    const int64_t sq = (t * t) % (2 * n);  // exact: keeps the angle small
    chirp_[static_cast<size_t>(t)] =
        unit(sign * pi * static_cast<double>(sq) / static_cast<double>(n));
  }
  chirp_fft_.assign(static_cast<size_t>(m), {0, 0});
  for (int64_t t = 0; t < n; ++t) {
    const auto c = std::conj(chirp_[static_cast<size_t>(t)]);
    chirp_fft_[static_cast<size_t>(t)] = c;
    if (t > 0) chirp_fft_[static_cast<size_t>(m - t)] = c;
  }
  std::vector<std::complex<double>> unused;
  forward_m_->run(chirp_fft_.data(), chirp_fft_.data(), unused);
}

FftPlan::~FftPlan() = default;

void FftPlan::radix2(std::complex<double>* data) const {
  const int64_t n = n_;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = bitrev_[static_cast<size_t>(i)];
    if (i < r) std::swap(data[i], data[r]);
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2, step = n / len;
    for (int64_t s = 0; s < n; s += len) {
      for (int64_t j = 0; j < half; ++j) {
        const std::complex<double> w = twiddle_[static_cast<size_t>(j * step)];
        const std::complex<double> u = data[s + j], v = data[s + j + half] * w;
        data[s + j] = u + v;
        data[s + j + half] = u - v;
      }
    }
  }
}

void FftPlan::run(const std::complex<double>* in, std::complex<double>* out,
                  std::vector<std::complex<double>>& scratch) const {
  if (pow2_) {
    if (in != out) std::copy_n(in, n_, out);
    radix2(out);
    return;
  }
  const int64_t m = forward_m_->size();
  scratch.assign(static_cast<size_t>(m), {0, 0});
  for (int64_t t = 0; t < n_; ++t)
    scratch[static_cast<size_t>(t)] = in[t] * chirp_[static_cast<size_t>(t)];
  forward_m_->radix2(scratch.data());
  for (int64_t k = 0; k < m; ++k)
    scratch[static_cast<size_t>(k)] *= chirp_fft_[static_cast<size_t>(k)];
  inverse_m_->radix2(scratch.data());
  const double scale = 1.0 / static_cast<double>(m);
  for (int64_t k = 0; k < n_; ++k)
    out[k] = scratch[static_cast<size_t>(k)] * scale * chirp_[static_cast<size_t>(k)];
}

}  // namespace bough::kernels
