// Rung 3: 2D register blocking. A block of 256 threads computes a 128x128 tile of C, each thread an 8x8 sub-tile
// held in registers. Per step of k a thread reads 8 values of A and 8 of B from shared memory and does 64 FMAs with
// them (rung 2: 2 reads per FMA), so the kernel stops waiting on shared memory and starts waiting on arithmetic.
#include <cuda_runtime.h>

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // depth of one A/B tile
#define TM 8    // rows of C per thread
#define TN 8    // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // 256

__global__ void __launch_bounds__(THREADS) matmul_blocktiled(const float* A, const float* B, float* C, int M, int N,
                                                             int K) {
  __shared__ float As[BK][BM];  // stored transposed (As[k][m]) so a thread's TM values of A are contiguous
  __shared__ float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM;  // first row of C for this block
  const int col0 = blockIdx.x * BN;  // first column of C for this block
  const int trow = (tid / (BN / TN)) * TM;  // first row of this thread's sub-tile, within the block tile
  const int tcol = (tid % (BN / TN)) * TN;  // first column

  float acc[TM][TN] = {};
  float a[TM], b[TN];

  for (int k0 = 0; k0 < N; k0 += BK) {
    // Load the BM x BK tile of A and the BK x BN tile of B: 1024 elements each, 4 per thread. Elements outside the
    // matrices are stored as zero, so partial tiles need no special case in the inner loop.
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK;
      const int gr = row0 + r, gc = k0 + c;
      As[c][r] = (gr < M && gc < N) ? A[gr * N + gc] : 0.0f;
    }
    for (int i = tid; i < BK * BN; i += THREADS) {
      const int r = i / BN, c = i % BN;
      const int gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < N && gc < K) ? B[gr * K + gc] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) a[i] = As[k][trow + i];
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][tcol + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }

  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + i;
    if (r >= M) break;
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + tcol + j;
      if (c < K) C[r * K + c] = acc[i][j];
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 blocks((K + BN - 1) / BN, (M + BM - 1) / BM);
  matmul_blocktiled<<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
