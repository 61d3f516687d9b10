// expect: wrong_answer
// expect-message: elements wrong
// GELU applied to the first half and multiplied by the second, as SwiGLU does with its activation: GeGLU's convention
// here (and LeetGPU's) is the reverse, x1 * gelu(x2). n2 already differs: -0.5 * gelu(3) = -1.4979752, not -0.4628063.
#include <cuda_runtime.h>
__global__ void geglu_kernel(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < halfN) {
    const float x1 = input[i], x2 = input[halfN + i];
    output[i] = x2 * (0.5f * x1 * (1.0f + erff(x1 * 0.70710678f)));
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  geglu_kernel<<<(halfN + 255) / 256, 256>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
