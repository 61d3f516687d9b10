#pragma once
// The CPU side of the Fourier references (reference/fast_fourier_transform.cu, reference/2d_fft.cu): the forward
// discrete Fourier transform X[k] = sum_j x[j] exp(-2 pi i j k / n) of any length n in double precision, in
// O(n log n) so that the GPU suite's check of every test case stays fast: radix-2 for powers of two, Bluestein's
// chirp-z (three power-of-two transforms of at least 2n - 1 points) for every other length. Every angle is reduced
// exactly in integers before it meets a float (j k mod n, j^2 mod 2n), so the twiddles are correct to double
// rounding at any n; the result is about 1e-15 relative to the largest output, far below any float32 tolerance.
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

namespace judge::ref {

// exp(-2 pi i k / n), k reduced mod n first.
inline std::complex<double> dft_twiddle(std::int64_t k, std::int64_t n) {
  k %= n;
  if (k < 0) k += n;
  const double angle = -2.0 * M_PI * static_cast<double>(k) / static_cast<double>(n);
  return {std::cos(angle), std::sin(angle)};
}

// In place, x.size() a power of two; sign -1 is the forward transform, +1 the unnormalised inverse.
inline void fft_pow2_double(std::vector<std::complex<double>>& x, int sign) {
  const std::size_t n = x.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t half = len / 2;
    for (std::size_t k = 0; k < half; ++k) {
      std::complex<double> w = dft_twiddle(static_cast<std::int64_t>(k), static_cast<std::int64_t>(len));
      if (sign > 0) w = std::conj(w);
      for (std::size_t i = 0; i < n; i += len) {
        const std::complex<double> u = x[i + k], v = x[i + k + half] * w;
        x[i + k] = u + v;
        x[i + k + half] = u - v;
      }
    }
  }
}

// The forward DFT of x, in place, any length.
inline void dft_double(std::vector<std::complex<double>>& x) {
  using cd = std::complex<double>;
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  if (n <= 1) return;
  if ((n & (n - 1)) == 0) {
    fft_pow2_double(x, -1);
    return;
  }
  // j k = (j^2 + k^2 - (k - j)^2) / 2, so X[k] = conj(c[k]) sum_j (x[j] conj(c[j])) c[k - j] with
  // c[m] = exp(i pi m^2 / n): a convolution, done as a cyclic one of m >= 2n - 1 points.
  std::int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  std::vector<cd> chirp(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) {
    const double angle = M_PI * static_cast<double>((j * j) % (2 * n)) / static_cast<double>(n);
    chirp[j] = {std::cos(angle), std::sin(angle)};
  }
  std::vector<cd> a(static_cast<std::size_t>(m)), b(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j) a[j] = x[j] * std::conj(chirp[j]);
  b[0] = chirp[0];
  for (std::int64_t j = 1; j < n; ++j) b[j] = b[m - j] = chirp[j];
  fft_pow2_double(a, -1);
  fft_pow2_double(b, -1);
  for (std::int64_t i = 0; i < m; ++i) a[i] *= b[i];
  fft_pow2_double(a, +1);
  for (std::int64_t k = 0; k < n; ++k) x[k] = a[k] * std::conj(chirp[k]) / static_cast<double>(m);
}

}  // namespace judge::ref
