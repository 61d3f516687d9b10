// expect: wrong_answer
// expect-message: elements wrong
// Computes in half precision: the input is rounded to __half (11 significant bits), multiplied by the half nearest
// 0.01 and widened back. Inputs lose up to 4.9e-4 of their value (relative), and the half slope (0.0100021) is
// itself 2.1e-4 off; the tolerance allows 1e-6 relative. The very first case (-5, expected -0.05) already fails.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void leaky_relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    __half x = __float2half(input[i]);
    __half y = __hgt(x, __float2half(0.0f)) ? x : __hmul(x, __float2half(0.01f));
    output[i] = __half2float(y);
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  leaky_relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
