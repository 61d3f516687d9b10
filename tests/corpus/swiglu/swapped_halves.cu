// expect: wrong_answer
// expect-message: elements wrong
// The activation on the wrong half: silu(x2) * x1 instead of silu(x1) * x2. (GeGLU's LeetGPU convention puts the
// activation on the second half; SwiGLU's puts it on the first.) The statement's example gives 2.8577224 for 2.1931757.
#include <cuda_runtime.h>
__global__ void swiglu_kernel(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < halfN) {
    const float x1 = input[i], x2 = input[halfN + i];
    output[i] = x2 / (1.0f + expf(-x2)) * x1;
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  swiglu_kernel<<<(halfN + 255) / 256, 256>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
