#include <cuda_runtime.h>

// spectrum[k][l] = sum over m < M, n < N of signal[m][n] * exp(-2 pi i (k m / M + l n / N)), with no scaling. Both
// matrices are M x N, row-major, each complex value two floats (real, imaginary): x[m][n] = signal[2 * (m * N + n)]
// + i * signal[2 * (m * N + n) + 1]. float2 has exactly this layout. The 2D transform is a 1D transform of every
// row followed by a 1D transform of every column of the result (or the other way round).
__global__ void fft_rows_kernel(const float2* in, float2* out, int M, int N) {
  // TODO: transform row blockIdx.x (N values) into out.
}

__global__ void fft_columns_kernel(const float2* in, float2* out, int M, int N) {
  // TODO: transform column blockIdx.x (M values, N apart) into out.
}

// signal and spectrum point to GPU memory, 2 * M * N floats each. solve() must leave the finished result in
// spectrum; the rows may be transformed into spectrum and the columns then transformed in place there.
extern "C" void solve(const float* signal, float* spectrum, int M, int N) {
  const int threads_per_block = 256;
  float2* out = reinterpret_cast<float2*>(spectrum);
  fft_rows_kernel<<<M, threads_per_block>>>(reinterpret_cast<const float2*>(signal), out, M, N);
  fft_columns_kernel<<<N, threads_per_block>>>(out, out, M, N);
  cudaDeviceSynchronize();
}
