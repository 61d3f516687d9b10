// expect: wrong_answer
// expect-message: elements wrong
// rotate_half([x1, x2]) is [-x2, x1]: the minus belongs to the first half. This kernel puts it on the second half
// (output[k] = x1 cos + x2 sin, output[k + h] = x2 cos - x1 sin), which rotates every pair by -theta instead of theta.
// Wherever sin is not 0 the outputs are wrong: 3.0 instead of -1.8 for the first output of example_2x4, and exactly
// the negated values on rotation_only_3x6.
#include <cuda_runtime.h>

__global__ void rope_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  const int h = D / 2;
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= (long long)M * h) return;
  const long long r = p / h;
  const long long lo = r * D + (p - r * h);
  const long long hi = lo + h;
  const float x1 = Q[lo], x2 = Q[hi];
  output[lo] = x1 * cos[lo] + x2 * sin[lo];  // the mistake: should be - x2 * sin
  output[hi] = x2 * cos[hi] - x1 * sin[hi];  // and + x1 * sin
}

extern "C" void solve(float* Q, float* cos, float* sin, float* output, int M, int D) {
  const long long pairs = (long long)M * (D / 2);
  const int blocks = (int)((pairs + 255) / 256);
  rope_kernel<<<blocks, 256>>>(Q, cos, sin, output, M, D);
  cudaDeviceSynchronize();
}
