// expect: wrong_answer
// expect-message: elements wrong
// Tensor cores in TF32 (WMMA 16x16x8): fast, and tails are handled properly (zero-filled shared-memory tiles), but
// every input is rounded to a 10-bit mantissa before it is multiplied, a relative error of up to 2^-11 per value.
// Summed over K terms that is 4x the tolerance (1e-4 + 1e-5 |ref|) already at K = 3 (strides_3x5x7x3), and 60x to
// 90x on the benchmarks, where FP32 arithmetic stays within 0.2 of it: `wrong_answer`. FP32 inputs are part of the
// problem. (Measured on an H200: 92% of the elements of 32 x 256 x 256 x 256 fail, as with cuBLAS in TF32 mode.)
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 16
#define THREADS 128  // 4 warps, each a 32x32 quarter of the block tile

__global__ void __launch_bounds__(THREADS) bmm_tf32(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(32) float As[BM][BK + 8];
  __shared__ __align__(32) float Bs[BK][BN + 8];
  __shared__ __align__(32) float Cs[BM][BN + 8];
  const size_t b = blockIdx.z;
  A += b * M * K;
  B += b * K * N;
  C += b * M * N;
  const int tid = threadIdx.x, wr = (tid / 32) / 2, wc = (tid / 32) % 2;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK, gr = row0 + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
    }
    for (int i = tid; i < BK * BN; i += THREADS) {
      const int r = i / BN, c = i % BN, gr = k0 + r, gc = col0 + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], &As[wr * 32 + i * 16][kk], BK + 8);
        for (int e = 0; e < fa[i].num_elements; ++e) fa[i].x[e] = wmma::__float_to_tf32(fa[i].x[e]);
      }
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(fb[j], &Bs[kk][wc * 32 + j * 16], BN + 8);
        for (int e = 0; e < fb[j].num_elements; ++e) fb[j].x[e] = wmma::__float_to_tf32(fb[j].x[e]);
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[wr * 32 + i * 16][wc * 32 + j * 16], acc[i][j], BN + 8, wmma::mem_row_major);
  __syncthreads();
  for (int i = tid; i < BM * BN; i += THREADS) {
    const int r = i / BN, c = i % BN, gr = row0 + r, gc = col0 + c;
    if (gr < M && gc < N) C[gr * N + gc] = Cs[r][c];
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int BATCH, int M, int N, int K) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM, BATCH);
  bmm_tf32<<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
