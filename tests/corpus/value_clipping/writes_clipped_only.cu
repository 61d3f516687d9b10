// expect: wrong_answer
// expect-message: never written
// Writes only the elements that need clipping, as if the output already held a copy of the input (it would, if the
// clip were done in place). Here the output is a separate buffer whose contents on entry are garbage (the judge's
// poison), so every element inside [lo, hi] is "never written": n1 (5 clipped to 1) passes, example_5 fails at 0.5.
#include <cuda_runtime.h>

__global__ void clip_kernel(const float* input, float* output, float lo, float hi, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float x = input[i];
    if (x < lo) output[i] = lo;
    else if (x > hi) output[i] = hi;
  }
}

extern "C" void solve(const float* input, float* output, float lo, float hi, int N) {
  clip_kernel<<<(N + 255) / 256, 256>>>(input, output, lo, hi, N);
  cudaDeviceSynchronize();
}
