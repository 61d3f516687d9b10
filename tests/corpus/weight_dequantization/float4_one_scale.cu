// expect: wrong_answer
// expect-message: elements wrong
// A flat float4 kernel that looks up one scale per float4, the first element's. That is right when N % 4 == 0 (a
// float4 then never leaves its row, and TILE_SIZE, a multiple of 4, never splits it), as in LeetGPU's performance test;
// with N = 50 the float4 of elements 48..51 holds columns 48, 49 of row 0 (tile column 3) and columns 0, 1 of row 1
// (tile column 0), and the one of elements 64..67 columns 14..17 of row 1 (tile columns 0 and 1). stride_40x50_t16 and
// straddle_33x17_t16 catch it (the earlier cases have a single tile or N % 4 == 0). The tail is done one by one.
#include <cuda_runtime.h>

__global__ void dequantize4(const float4* X, const float* S, float4* Y, int N, int TILE_SIZE, int n4, int n) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  const int s_cols = (N + TILE_SIZE - 1) / TILE_SIZE;
  if (q < n4) {
    const int e = 4 * q;
    const float s = S[(e / N / TILE_SIZE) * s_cols + (e % N) / TILE_SIZE];  // only right for all 4 if N % 4 == 0
    const float4 x = X[q];
    Y[q] = make_float4(x.x * s, x.y * s, x.z * s, x.w * s);
  }
  const int e = 4 * n4 + q;  // the last n % 4 elements
  if (e < n)
    reinterpret_cast<float*>(Y)[e] =
        reinterpret_cast<const float*>(X)[e] * S[(e / N / TILE_SIZE) * s_cols + (e % N) / TILE_SIZE];
}

extern "C" void solve(const float* X, const float* S, float* Y, int M, int N, int TILE_SIZE) {
  const int n = M * N, n4 = n / 4;
  const int blocks = (n4 + 255) / 256 > 0 ? (n4 + 255) / 256 : 1;
  dequantize4<<<blocks, 256>>>(reinterpret_cast<const float4*>(X), S, reinterpret_cast<float4*>(Y), N, TILE_SIZE, n4,
                               n);
  cudaDeviceSynchronize();
}
