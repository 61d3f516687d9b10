// Reference for challenges/fast_fourier_transform: spectrum = the forward DFT of signal, N complex values stored as
// interleaved (real, imaginary) float pairs, X[k] = sum_n x[n] exp(-2 pi i k n / N), no normalisation (numpy's and
// torch's fft). That layout is cuFFT's cufftComplex, so the GPU reference is one single-precision C2C cuFFT plan
// (kept between calls, reference/cufft_plan.cuh), run in place on the output after copying the input there: an
// out-of-place cuFFT transform may use its input as scratch, and the input buffer is the one the submission is handed
// next. cuFFT is a float32 FFT of the kind the statement asks for, with errors of the size it allows
// (statement.md, Tolerance); the GPU suite checks it against the CPU reference, a double-precision FFT of any length
// (reference/dft_double.cuh).
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cufft_plan.cuh"
#include "reference/dft_double.cuh"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "fast_fourier_transform";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int N = a.scalar<int>("N");
  if (N <= 0) return;
  float* spectrum = a.output<float>("spectrum");
  judge::ref::check_cuda(cudaMemcpyAsync(spectrum, a.input<float>("signal"), 2 * sizeof(float) * std::size_t(N),
                                         cudaMemcpyDeviceToDevice, s),
                         kId, "cudaMemcpyAsync(signal to spectrum)");
  if (N == 1) return;  // the DFT of one value is that value
  static judge::ref::CufftPlan plan(kId);
  auto* data = reinterpret_cast<cufftComplex*>(spectrum);
  judge::ref::check_cufft(cufftExecC2C(plan.get(0, N, s), data, data, CUFFT_FORWARD), kId,
                          "cufftExecC2C(CUFFT_FORWARD)");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t N = a.scalar<int>("N");
  const float* signal = a.input<float>("signal");
  double* spectrum = a.output("spectrum");
  std::vector<std::complex<double>> x(static_cast<std::size_t>(N));
  for (std::int64_t n = 0; n < N; ++n) x[n] = {double(signal[2 * n]), double(signal[2 * n + 1])};
  judge::ref::dft_double(x);
  for (std::int64_t k = 0; k < N; ++k) {
    spectrum[2 * k] = x[k].real();
    spectrum[2 * k + 1] = x[k].imag();
  }
}

}  // namespace

JUDGE_REFERENCE(fast_fourier_transform, gpu, cpu)
