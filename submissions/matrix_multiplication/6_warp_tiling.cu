// Rung 6: warp tiling: 128x128 block -> 8 warps of 64x32 -> each lane 2x2 patches of 4x4 outer products.
// Rung 5 gave each thread one 8x8 patch of C, so the 32 threads of a warp covered a 16x128 strip: per step of k the
// warp read 16 floats of A and all 128 of B from shared memory (6 passes through the banks for 64 FMAs). Now each
// warp owns a 64x32 block of C and spreads its lanes over it as an 8x4 grid, each lane a 4x4 patch repeated at
// +32 rows and +16 columns. Per step of k a warp reads 64 floats of A and 32 of B: per 16-byte read the 32 lanes ask
// for only 8 (A) or 4 (B) different float4, consecutive ones, one pass each: 4 passes for 64 FMAs, and the values a
// warp keeps in registers are reused across a squarer patch (64 + 32 values per k for 2048 products, instead of
// 16 + 128). The tile depth goes from 8 to 16: half the __syncthreads per FMA, and twice the loads in flight per
// thread while the block waits at the barrier. Both still fit two blocks per SM (launch bounds: <= 128 registers),
// so one block computes while the other waits for its tiles.
#include <cuda_runtime.h>

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 16   // depth of one A/B tile
#define WM 64   // rows of C per warp
#define WN 32   // columns of C per warp
#define TM 8    // rows of C per thread: 4 at lr * 4 and 4 at WM / 2 + lr * 4 within the warp tile
#define TN 8    // columns of C per thread: 4 at lc * 4 and 4 at WN / 2 + lc * 4
#define PAD 4   // floats of padding per row of the transposed A tile (rung 5)
#define WARPS_N (BN / WN)                 // 4 warps across, 2 down
#define THREADS ((BM / WM) * WARPS_N * 32)  // 256

// Elements (r, c), ..., (r, c + 3) of a rows x cols row-major matrix X, zero where outside the matrix. c is a
// multiple of 4. VEC: cols % 4 == 0, so the four are all inside the row or all outside it, and (r, c) is 16-byte
// aligned (the buffers are, and every row starts at a multiple of 4 floats).
template <bool VEC>
__device__ __forceinline__ float4 load4(const float* X, int r, int c, int rows, int cols) {
  if constexpr (VEC) {
    if (r < rows && c < cols) return *reinterpret_cast<const float4*>(X + r * cols + c);
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  } else {
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = (r < rows && c + i < cols) ? X[r * cols + c + i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
  }
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS, 2)
    matmul_warptiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM + PAD];  // transposed (As[k][m]), padded as in rung 5
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int row0 = blockIdx.y * BM;                             // first row of C for this block
  const int col0 = blockIdx.x * BN;                             // first column of C for this block
  const int trow = (warp / WARPS_N) * WM + (lane / 4) * 4;      // this lane's first row, within the block tile
  const int tcol = (warp % WARPS_N) * WN + (lane % 4) * 4;      // its first column
  // Tile loads, as in rung 5 but two float4 of each per thread, for p = 0, 1: A (128 x 16) row a_r, columns
  // a_c + 8 * p..a_c + 8 * p + 3; B (16 x 128) row b_r + 8 * p, columns b_c..b_c+3. A is loaded as two halves of 8
  // columns, with rung 5's thread layout in each, because that keeps the transposed stores conflict-free: with the
  // 4 column groups 0, 4, 8, 12 in one warp, rows k and k + 8 of As (8 * 132 floats apart = 0 banks) would collide.
  const int a_r = tid / 2, a_c = (tid % 2) * 4;
  const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;
  constexpr int B_STEP = THREADS / (BN / 4);  // 8 rows

  float acc[TM][TN] = {};

  for (int k0 = 0; k0 < N; k0 += BK) {
#pragma unroll
    for (int p = 0; p < BK / 8; ++p) {
      const int c = a_c + 8 * p;
      const float4 a = load4<VEC>(A, row0 + a_r, k0 + c, M, N);
      As[c + 0][a_r] = a.x;
      As[c + 1][a_r] = a.y;
      As[c + 2][a_r] = a.z;
      As[c + 3][a_r] = a.w;
    }
#pragma unroll
    for (int p = 0; p < BK / B_STEP; ++p)
      *reinterpret_cast<float4*>(&Bs[b_r + p * B_STEP][b_c]) = load4<VEC>(B, k0 + b_r + p * B_STEP, col0 + b_c, N, K);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[k][trow]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[k][trow + WM / 2]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tcol]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][tcol + WN / 2]);
      const float av[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }

  // acc[i][j]: row trow + (i / 4) * (WM / 2) + i % 4, column tcol + (j / 4) * (WN / 2) + j % 4.
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + (i / 4) * (WM / 2) + i % 4;
    if (r >= M) continue;  // rows are not in increasing order of i any more
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int c = col0 + tcol + (j / 4) * (WN / 2);
      if constexpr (VEC) {  // K % 4 == 0: the four columns c..c+3 are all inside C or all outside it
        if (c < K)
          *reinterpret_cast<float4*>(&C[r * K + c]) =
              make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      } else {
#pragma unroll
        for (int jj = 0; jj < 4; ++jj)
          if (c + jj < K) C[r * K + c + jj] = acc[i][j + jj];
      }
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 blocks((K + BN - 1) / BN, (M + BM - 1) / BM);
  if (N % 4 == 0 && K % 4 == 0)
    matmul_warptiled<true><<<blocks, THREADS>>>(A, B, C, M, N, K);
  else
    matmul_warptiled<false><<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
