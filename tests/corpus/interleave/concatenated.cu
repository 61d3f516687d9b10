// expect: wrong_answer
// expect-message: elements wrong
// The wrong output stride: A is copied to output[0, N) and B to output[N, 2N), a concatenation instead of an
// interleaving. Every element is written, so nothing is "never written", but only output[0] and output[2N - 1] are
// in their places: n1 passes (one pair looks the same either way), example_5 gets [1, 2, 3, 4, 5, 10, 20, ...].
#include <cuda_runtime.h>

__global__ void interleave_kernel(const float* A, const float* B, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    output[i] = A[i];
    output[N + i] = B[i];
  }
}

extern "C" void solve(const float* A, const float* B, float* output, int N) {
  interleave_kernel<<<(N + 255) / 256, 256>>>(A, B, output, N);
  cudaDeviceSynchronize();
}
