// expect: wrong_answer
// expect-message: elements wrong
// The bounds swapped: min(max(x, hi), lo). With lo < hi the max lifts everything to at least hi and the min then
// brings it down to lo, so every output is lo. The single element of n1 (5 clipped to [-1, 1]) already comes out -1
// instead of 1; the example_5 and all_inside tests fail the same way.
#include <cuda_runtime.h>

__global__ void clip_kernel(const float* input, float* output, float lo, float hi, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) output[i] = fminf(fmaxf(input[i], hi), lo);
}

extern "C" void solve(const float* input, float* output, float lo, float hi, int N) {
  clip_kernel<<<(N + 255) / 256, 256>>>(input, output, lo, hi, N);
  cudaDeviceSynchronize();
}
