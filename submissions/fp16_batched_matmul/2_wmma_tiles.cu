// Rung 2: tensor cores through WMMA. A block of 4 warps computes a 64x64 tile of one C[b] (blockIdx.z picks b); each
// warp owns a 32x32 quarter, four 16x16 float accumulator fragments. Per 32-deep step the block stages the A[b] and
// B[b] tiles in shared memory, filling whatever lies outside the matrices with zeros, so sizes need not be multiples of
// 16; the fragments multiply half inputs with float accumulation (rung 1 did each multiply-add on the CUDA cores, one
// per instruction). The finished tile goes through shared memory so that the rounding to half and the bounds checks
// are applied element by element.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define BM 64          // rows of C per block
#define BN 64          // columns of C per block
#define BK 32          // depth of one staged A/B tile
#define WMMA_DIM 16    // the 16x16x16 WMMA shape
#define THREADS 128    // 4 warps in a 2x2 arrangement, each 32x32 of C
#define A_LD (BK + 8)  // padded leading dimensions (multiples of 8 halves / 4 floats, as WMMA requires), which also
#define B_LD (BN + 8)  // spread the fragment loads over the shared-memory banks
#define C_LD (BN + 4)

__global__ void __launch_bounds__(THREADS) bmm_wmma(const half* A, const half* B, half* C, int M, int N, int K) {
  // WMMA loads and stores need 32-byte aligned pointers: every fragment starts at a multiple of 16 rows and columns.
  __shared__ __align__(32) half As[BM][A_LD];
  __shared__ __align__(32) half Bs[BK][B_LD];
  __shared__ __align__(32) float Cs[BM][C_LD];
  // Matrix b of each operand starts b times its own size after the first.
  const size_t b = blockIdx.z;
  A += b * M * K;
  B += b * K * N;
  C += b * M * N;
  const int tid = threadIdx.x;
  const int warp_row = (tid / 32) / 2, warp_col = (tid / 32) % 2;  // this warp's 32x32 quarter of the block tile
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;        // first row and column of C[b] for this block
  const half zero = __float2half(0.0f);

  wmma::fragment<wmma::accumulator, WMMA_DIM, WMMA_DIM, WMMA_DIM, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    // Consecutive threads read consecutive elements of a row: coalesced. Out-of-range elements are zeros, which add
    // nothing to the sums (and keep the tile from reading the next row, or the next matrix of the batch).
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK, gr = row0 + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[static_cast<size_t>(gr) * K + gc] : zero;
    }
    for (int i = tid; i < BK * BN; i += THREADS) {
      const int r = i / BN, c = i % BN, gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < K && gc < N) ? B[static_cast<size_t>(gr) * N + gc] : zero;
    }
    __syncthreads();  // the tiles are complete
    for (int kk = 0; kk < BK; kk += WMMA_DIM) {
      wmma::fragment<wmma::matrix_a, WMMA_DIM, WMMA_DIM, WMMA_DIM, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, WMMA_DIM, WMMA_DIM, WMMA_DIM, half, wmma::row_major> bf[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[warp_row * 32 + i * WMMA_DIM][kk], A_LD);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(bf[j], &Bs[kk][warp_col * 32 + j * WMMA_DIM], B_LD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], bf[j], acc[i][j]);
    }
    __syncthreads();  // everyone is done with the tiles before the next step overwrites them
  }

  // The element layout of a fragment is unspecified, so the sums are stored to shared memory and read back by position.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[warp_row * 32 + i * WMMA_DIM][warp_col * 32 + j * WMMA_DIM], acc[i][j], C_LD,
                              wmma::mem_row_major);
  __syncthreads();
  for (int i = tid; i < BM * BN; i += THREADS) {
    const int r = i / BN, c = i % BN, gr = row0 + r, gc = col0 + c;
    if (gr < M && gc < N) C[static_cast<size_t>(gr) * N + gc] = __float2half(Cs[r][c]);
  }
}

// A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N, all row-major device pointers.
extern "C" void solve(const half* A, const half* B, half* C, int BATCH, int M, int N, int K) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM, BATCH);
  bmm_wmma<<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
