// Reference for challenges/2d_fft: spectrum = the forward 2D DFT of an M x N complex signal, row-major, every value
// an interleaved (real, imaginary) float pair: X[k][l] = sum_{m,n} x[m][n] exp(-2 pi i (k m / M + l n / N)), no
// normalisation (torch.fft.fft2). That layout is cuFFT's, so the GPU reference is one single-precision C2C cuFFT plan
// of M x N (kept between calls, reference/cufft_plan.cuh), run in place on the output after copying the input there
// (an out-of-place transform may use its input as scratch, and the input buffer is the one the submission is handed
// next). A side of 1 makes it a 1D transform of the other side (the data are contiguous either way), which spares
// cuFFT a 2D plan with a dimension of one. The GPU suite checks it against the CPU reference: a double-precision FFT
// of every row, then of every column (reference/dft_double.cuh).
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "judge/worker/reference.hpp"
#include "reference/cufft_plan.cuh"
#include "reference/dft_double.cuh"
#include "reference/reference_util.cuh"

namespace {

constexpr const char* kId = "2d_fft";

void gpu(const judge::DeviceArgs& a, cudaStream_t s) {
  const int M = a.scalar<int>("M");
  const int N = a.scalar<int>("N");
  if (M <= 0 || N <= 0) return;
  float* spectrum = a.output<float>("spectrum");
  const std::size_t count = std::size_t(M) * std::size_t(N);
  judge::ref::check_cuda(cudaMemcpyAsync(spectrum, a.input<float>("signal"), 2 * sizeof(float) * count,
                                         cudaMemcpyDeviceToDevice, s),
                         kId, "cudaMemcpyAsync(signal to spectrum)");
  if (count == 1) return;  // the DFT of one value is that value
  static judge::ref::CufftPlan plan(kId);
  const cufftHandle h = M == 1 || N == 1 ? plan.get(0, int(count), s) : plan.get(M, N, s);
  auto* data = reinterpret_cast<cufftComplex*>(spectrum);
  judge::ref::check_cufft(cufftExecC2C(h, data, data, CUFFT_FORWARD), kId, "cufftExecC2C(CUFFT_FORWARD)");
}

void cpu(judge::HostArgs& a) {
  const std::int64_t M = a.scalar<int>("M");
  const std::int64_t N = a.scalar<int>("N");
  const float* signal = a.input<float>("signal");
  double* spectrum = a.output("spectrum");
  std::vector<std::complex<double>> x(static_cast<std::size_t>(M * N));
  for (std::int64_t i = 0; i < M * N; ++i) x[i] = {double(signal[2 * i]), double(signal[2 * i + 1])};
  std::vector<std::complex<double>> line(static_cast<std::size_t>(N));
  for (std::int64_t m = 0; m < M; ++m) {  // every row
    for (std::int64_t n = 0; n < N; ++n) line[n] = x[m * N + n];
    judge::ref::dft_double(line);
    for (std::int64_t n = 0; n < N; ++n) x[m * N + n] = line[n];
  }
  line.resize(static_cast<std::size_t>(M));
  for (std::int64_t n = 0; n < N; ++n) {  // then every column
    for (std::int64_t m = 0; m < M; ++m) line[m] = x[m * N + n];
    judge::ref::dft_double(line);
    for (std::int64_t m = 0; m < M; ++m) x[m * N + n] = line[m];
  }
  for (std::int64_t i = 0; i < M * N; ++i) {
    spectrum[2 * i] = x[i].real();
    spectrum[2 * i + 1] = x[i].imag();
  }
}

}  // namespace

JUDGE_REFERENCE(2d_fft, gpu, cpu)
