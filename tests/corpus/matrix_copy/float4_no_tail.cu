// expect: wrong_answer
// expect-message: 1 never written
// judge-args: --case example_3x3 --case n7 --case n1999
// A float4 copy without the scalar tail: only the first 4 * floor(N * N / 4) floats are copied. Every odd N leaves
// (N * N) % 4 = 1 element unwritten (9 = 2 * 4 + 1, 49 = 12 * 4 + 1). (For N = 1 nothing at all is written, which
// is `output_not_written`; the cases named above have something to get right.)
#include <cuda_runtime.h>

__global__ void copy_matrix(const float4* A, float4* B, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) B[i] = A[i];
}

extern "C" void solve(const float* A, float* B, int N) {
  const int n4 = N * N / 4;
  if (n4 > 0)
    copy_matrix<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(A), reinterpret_cast<float4*>(B), n4);
  cudaDeviceSynchronize();
}
