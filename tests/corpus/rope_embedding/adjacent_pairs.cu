// expect: wrong_answer
// expect-message: elements wrong
// Rotates neighbouring elements (2i, 2i + 1) together, the interleaved layout of GPT-J and of the RoFormer paper,
// instead of pairing element k with k + D/2 as rotate_half does. The formula per pair is otherwise right, so the
// output has the right magnitudes and only the pairing is wrong: on example_2x4 the first output is
// 1 * 0.6 - 2 * 0.8 = -1.0 instead of 1 * 0.6 - 3 * 0.8 = -1.8.
#include <cuda_runtime.h>

__global__ void rope_kernel(const float* Q, const float* cos, const float* sin, float* output, int M, int D) {
  const int h = D / 2;
  const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= (long long)M * h) return;
  const long long r = p / h;
  const long long even = r * D + 2 * (p - r * h);  // the mistake: the partner is the neighbour, not k + h
  const long long odd = even + 1;
  const float x1 = Q[even], x2 = Q[odd];
  output[even] = x1 * cos[even] - x2 * sin[even];
  output[odd] = x2 * cos[odd] + x1 * sin[odd];
}

extern "C" void solve(float* Q, float* cos, float* sin, float* output, int M, int D) {
  const long long pairs = (long long)M * (D / 2);
  const int blocks = (int)((pairs + 255) / 256);
  rope_kernel<<<blocks, 256>>>(Q, cos, sin, output, M, D);
  cudaDeviceSynchronize();
}
