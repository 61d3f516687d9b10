#include <cuda_runtime.h>

// spectrum[k] = sum over n < N of signal[n] * exp(-2 pi i k n / N), for k < N, with no scaling. Each complex value
// is two floats, real then imaginary: x[n] = signal[2 * n] + i * signal[2 * n + 1], and the same for spectrum.
// N is any length from 1 to 262,144 (not only powers of two). float2 has exactly this layout.
__global__ void fft_kernel(const float2* signal, float2* spectrum, int N) {
  // TODO: a direct O(N^2) DFT is a first step, but it is too slow and, summed in float, not accurate enough at the
  // largest N; an FFT (radix-2 stages over a power of two, plus Bluestein or mixed radices for other lengths) is
  // the goal.
}

// signal and spectrum point to GPU memory, 2 * N floats each. solve() must leave the finished result in spectrum.
extern "C" void solve(const float* signal, float* spectrum, int N) {
  const int threads_per_block = 256;
  const int blocks = (N + threads_per_block - 1) / threads_per_block;
  fft_kernel<<<blocks, threads_per_block>>>(reinterpret_cast<const float2*>(signal),
                                            reinterpret_cast<float2*>(spectrum), N);
  cudaDeviceSynchronize();
}
