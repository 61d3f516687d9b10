// expect: wrong_answer
// expect-message: elements wrong
// GELU by its tanh approximation, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as in GPT-2's code. It differs
// from the exact erf GELU by up to 4.7e-4 near x = -3; multiplied by a linear part x1 of up to 100, that is far over
// the tolerance. The statement's example already fails (output[1]: 0.1004284 for 0.1002108), as do gate_normal_3
// (about 40% of its outputs wrong) and range_100000 (3%).
#include <cuda_runtime.h>
__global__ void geglu_kernel(const float* input, float* output, int halfN) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < halfN) {
    const float x1 = input[i], x = input[halfN + i];
    const float gelu = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    output[i] = x1 * gelu;
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  const int halfN = N / 2;
  geglu_kernel<<<(halfN + 255) / 256, 256>>>(input, output, halfN);
  cudaDeviceSynchronize();
}
