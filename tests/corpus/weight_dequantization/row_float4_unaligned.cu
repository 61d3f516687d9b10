// expect: runtime_error
// expect-message: cudaErrorMisalignedAddress
// Loads each row of X as float4s from X + i * N, plus a scalar tail per row, as if every row started on the 16-byte
// grid. That holds only when N % 4 == 0 (the example, N = 20, and LeetGPU's performance test); m2_n3_t16 has rows
// shorter than a float4 (no vectors), and stride_40x50_t16 is the first with N % 4 != 0: row 1 starts at byte 200,
// and the misaligned 16-byte load is a CUDA error.
#include <cuda_runtime.h>

__global__ void dequantize_rows(const float* X, const float* S, float* Y, int N, int TILE_SIZE) {
  const int i = blockIdx.x;
  const int s_cols = (N + TILE_SIZE - 1) / TILE_SIZE;
  const float* s_row = S + (i / TILE_SIZE) * s_cols;
  const float4* x4 = reinterpret_cast<const float4*>(X + (size_t)i * N);  // aligned only if N % 4 == 0
  float4* y4 = reinterpret_cast<float4*>(Y + (size_t)i * N);
  for (int c = threadIdx.x; c < N / 4; c += blockDim.x) {
    const float s = s_row[4 * c / TILE_SIZE];
    const float4 x = x4[c];
    y4[c] = make_float4(x.x * s, x.y * s, x.z * s, x.w * s);
  }
  for (int j = 4 * (N / 4) + threadIdx.x; j < N; j += blockDim.x)
    Y[(size_t)i * N + j] = X[(size_t)i * N + j] * s_row[j / TILE_SIZE];
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  dequantize_rows<<<M, 256>>>(X, S, Y, N, TILE_SIZE);
  cudaDeviceSynchronize();
}
