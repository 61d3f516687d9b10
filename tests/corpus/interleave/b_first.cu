// expect: wrong_answer
// expect-message: elements wrong
// A and B in the wrong order: B[i] goes to output[2 * i] and A[i] to output[2 * i + 1], so the output starts with
// B[0]. Every position holds a value of the wrong input; n1 already gets [-7.25, 3.5] instead of [3.5, -7.25].
#include <cuda_runtime.h>

__global__ void interleave_kernel(const float* A, const float* B, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    output[2 * i] = B[i];
    output[2 * i + 1] = A[i];
  }
}

extern "C" void solve(const float* A, const float* B, float* output, int N) {
  interleave_kernel<<<(N + 255) / 256, 256>>>(A, B, output, N);
  cudaDeviceSynchronize();
}
