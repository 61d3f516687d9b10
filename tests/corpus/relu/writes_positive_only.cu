// expect: wrong_answer
// expect-message: never written
// Writes only the elements that pass through (x > 0) and skips the rest, assuming the output starts zeroed (it often
// does on a fresh allocation, so this can pass elsewhere). The judge fills the output with a poison pattern before
// every call, so the skipped elements (negatives and the 0 of the example) are "never written": `wrong_answer`.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && input[i] > 0.0f) output[i] = input[i];
}

extern "C" void solve(const float* input, float* output, int N) {
  relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
