// expect: wrong_answer
// expect-message: never written
// judge-args: --case m2_n3_t16 --case straddle_33x17_t16
// Treats X and Y as flat arrays of float4 and finds each element's row and column on its own (so row ends and tile
// boundaries inside a float4 are right), but never does the last (M * N) % 4 elements: m2_n3_t16 (6 elements) leaves
// 2 and straddle_33x17_t16 (561) leaves 1 holding the judge's poison. Right whenever M * N % 4 == 0, as in LeetGPU's
// performance test. (For M * N < 4 nothing is written, which is `output_not_written`; the cases named above have
// something to get right.)
#include <cuda_runtime.h>

__global__ void dequantize4(const float4* X, const float* S, float4* Y, int M, int N, int TILE_SIZE, int n4) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= n4) return;
  const int s_cols = (N + TILE_SIZE - 1) / TILE_SIZE;
  const float4 x = X[q];
  float v[4] = {x.x, x.y, x.z, x.w};
  for (int k = 0; k < 4; ++k) {
    const int e = 4 * q + k;
    v[k] *= S[(e / N / TILE_SIZE) * s_cols + (e % N) / TILE_SIZE];
  }
  Y[q] = make_float4(v[0], v[1], v[2], v[3]);
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int n4 = M * N / 4;  // missing: the last M * N % 4 elements
  if (n4 > 0)
    dequantize4<<<(n4 + 255) / 256, 256>>>(reinterpret_cast<const float4*>(X), S, reinterpret_cast<float4*>(Y), M, N,
                                           TILE_SIZE, n4);
  cudaDeviceSynchronize();
}
