// expect: wrong_answer
// expect-message: elements wrong
// Works in half precision: each input is rounded to __half (11 significant bits), the ReLU is taken in half and
// widened back. Inputs in [-100, 100) lose up to 4.9e-4 of their value (relative), which the exact check does not
// forgive. The two hand-written cases survive (their values are exact in half); the random cases fail.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    __half h = __float2half(input[i]);
    output[i] = __half2float(__hmax(h, __float2half(0.0f)));
  }
}

extern "C" void solve(const float* input, float* output, int N) {
  relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
