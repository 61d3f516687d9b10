// Rung 4: float4 (128-bit) loads from global memory and float4 reads of the tiles in shared memory.
// Each thread now fetches its share of the A and B tiles as one float4 each (one 16-byte load instead of four 4-byte
// loads), stores A's four values transposed (As[k][m], as in rung 3) and B's as one 16-byte store, and reads its 8
// values of A and 8 of B per step of k as two float4 each: 4 shared-memory instructions per 64 FMAs instead of 16.
// float4 on a row needs the row to start 16-byte aligned, which holds when its length is a multiple of 4; so the
// kernel is a template: the float4 path runs when N % 4 == 0 and K % 4 == 0 (both benchmarks), a path with four
// scalar loads per float4 (same tiles, same arithmetic) otherwise. Two bank conflicts remain; rung 5 removes them.
#include <cuda_runtime.h>

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // depth of one A/B tile
#define TM 8    // rows of C per thread
#define TN 8    // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // 256

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
__global__ void __launch_bounds__(THREADS)
    matmul_vectorized(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM];  // transposed: As[k][m], so a thread's TM values of A are contiguous
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM;         // first row of C for this block
  const int col0 = blockIdx.x * BN;         // first column of C for this block
  const int trow = (tid / (BN / TN)) * TM;  // first row of this thread's 8x8 sub-tile, within the block tile
  const int tcol = (tid % (BN / TN)) * TN;  // first column
  // The A tile (BM x BK = 128 x 8) is 256 float4, one per thread: row a_r, columns a_c..a_c+3. The B tile
  // (BK x BN = 8 x 128) likewise: row b_r, columns b_c..b_c+3. Consecutive threads read consecutive float4 of a row.
  const int a_r = tid / (BK / 4), a_c = (tid % (BK / 4)) * 4;
  const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;

  float acc[TM][TN] = {};

  for (int k0 = 0; k0 < N; k0 += BK) {
    // Out-of-range elements are loaded as zero, so partial tiles need no special case in the inner loop.
    const float4 a = load4<VEC>(A, row0 + a_r, k0 + a_c, M, N);
    const float4 b = load4<VEC>(B, k0 + b_r, col0 + b_c, N, K);
    As[a_c + 0][a_r] = a.x;  // the transpose: four 4-byte stores
    As[a_c + 1][a_r] = a.y;
    As[a_c + 2][a_r] = a.z;
    As[a_c + 3][a_r] = a.w;
    *reinterpret_cast<float4*>(&Bs[b_r][b_c]) = b;  // one 16-byte store
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[k][trow]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[k][trow + 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tcol]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][tcol + 4]);
      const float av[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + i;
    if (r >= M) break;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int c = col0 + tcol + j;
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
    matmul_vectorized<true><<<blocks, THREADS>>>(A, B, C, M, N, K);
  else
    matmul_vectorized<false><<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
