// expect: wrong_answer
// expect-message: NaN
// One thread per element, non-zeros added into y[row] with atomicAdd, but y is never set to 0 first: it holds
// whatever was there before the call. The judge fills outputs with a NaN pattern, and NaN + anything is NaN.
// (Add cudaMemsetAsync(y, 0, M * sizeof(float)) before the kernel and this is correct, if slow.)
#include <cuda_runtime.h>
__global__ void spmv(const float* A, const float* x, float* y, int M, int N) {
  const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= (long long)M * N) return;
  const float a = A[e];
  if (a != 0.0f) atomicAdd(&y[e / N], a * x[e % N]);
}
extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const long long total = (long long)M * N;
  spmv<<<(unsigned)((total + 255) / 256), 256>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
