// expect: wrong_answer
// expect-message: NaN/Inf where the reference is finite
// sigmoid written as exp(x) / (1 + exp(x)): exact in real arithmetic and accurate in float while exp(x) is finite,
// but for x > 88.7 expf(x) overflows and the quotient is inf / inf = NaN. Caught by overflow_80_100 (and by any
// random case that draws an input above 88.7); the fix is x / (1 + exp(-x)).
#include <cuda_runtime.h>
__global__ void silu_kernel(const float* input, float* output, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float x = input[i];
    const float e = expf(x);
    output[i] = x * e / (1.0f + e);
  }
}
extern "C" void solve(const float* input, float* output, int N) {
  silu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
  cudaDeviceSynchronize();
}
