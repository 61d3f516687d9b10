// Rung 3: 2D register blocking. A block of 256 threads computes a 64x64 tile of C[b], each thread a 4x4 sub-tile held
// in registers: per step of k a thread reads 4 values of A and 4 of B from shared memory and does 16 FMAs with them
// (rung 2: 2 reads per FMA), so shared-memory bandwidth stops being the limit. 64x64 tiles (rather than 128x128) keep
// enough blocks in flight for batches of 256x256 matrices: 16 per matrix.
#include <cuda_runtime.h>

#define BM 64  // rows of C per block
#define BN 64  // columns of C per block
#define BK 16  // depth of one A/B tile
#define TM 4   // rows of C per thread
#define TN 4   // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // 256

__global__ void __launch_bounds__(THREADS)
    batched_matmul_blocktiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[BK][BM];  // stored transposed (As[k][m]) so a thread's TM values of A are contiguous
  __shared__ float Bs[BK][BN];
  const size_t b = blockIdx.z;
  A += b * M * K;
  B += b * K * N;
  C += b * M * N;
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;  // first row and column of C[b] for this block
  const int trow = (tid / (BN / TN)) * TM;  // first row of this thread's sub-tile, within the block tile
  const int tcol = (tid % (BN / TN)) * TN;  // first column

  float acc[TM][TN] = {};
  float a[TM], bv[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    // 1024 elements of each tile, 4 per thread; consecutive threads read consecutive addresses of a row. Elements
    // outside the matrix are stored as zero, so partial tiles need no special case in the inner loop.
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK, gr = row0 + r, gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
    }
    for (int i = tid; i < BK * BN; i += THREADS) {
      const int r = i / BN, c = i % BN, gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) a[i] = As[k][trow + i];
      for (int j = 0; j < TN; ++j) bv[j] = Bs[k][tcol + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * bv[j];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }

  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + i;
    if (r >= M) break;
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + tcol + j;
      if (c < N) C[r * N + c] = acc[i][j];
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int BATCH, int M, int N, int K) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM, BATCH);
  batched_matmul_blocktiled<<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
