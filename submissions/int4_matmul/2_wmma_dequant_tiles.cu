// Rung 2: tensor cores through WMMA. A block of 4 warps computes a 64x64 tile of y; each warp owns a 32x32 quarter,
// four 16x16 float accumulator fragments. Per 32-deep step the block stages a tile of x and a tile of W in shared
// memory, W dequantized on the way in (16 bytes of w_q per row of the tile, each nibble minus 8 times its group's
// scale, rounded to half), with zeros outside the matrices, so no size need be a multiple of 16. Rung 1 fetched
// every weight byte and x value once per output and did one multiply-add per instruction; here each staged value
// serves 64 outputs and the multiply-adds run on tensor cores, half inputs with float accumulation.
// Rounding W to half costs up to 2^-12 of a weight (14 significant bits become 11): within the tolerance on every
// test (0.58 of it at worst, simulated: the statement's Tolerance section), and exact for the benchmarks' scales.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

#define BM 64          // rows of y (rows of x) per block
#define BN 64          // columns of y (rows of W) per block
#define BK 32          // depth of one staged tile: 16 bytes of each row of w_q
#define WMMA_DIM 16    // the 16x16x16 WMMA shape
#define THREADS 128    // 4 warps in a 2x2 arrangement, each 32x32 of y
#define S_LD (BK + 8)  // padded leading dimension of the staged tiles (a multiple of 8 halves, as WMMA requires)
#define C_LD (BN + 4)  // of the finished tile (a multiple of 4 floats)

__global__ void __launch_bounds__(THREADS)
    int4_matmul_wmma(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                     int group_size) {
  // WMMA loads and stores need 32-byte aligned pointers: every fragment starts at a multiple of 16 rows and columns.
  __shared__ __align__(32) __half Xs[BM][S_LD];  // Xs[r][c] = x[row0 + r][k0 + c]
  __shared__ __align__(32) __half Ws[BN][S_LD];  // Ws[r][c] = W[col0 + r][k0 + c]: W^T in column-major order
  __shared__ __align__(32) float Cs[BM][C_LD];
  const int tid = threadIdx.x;
  const int warp_row = (tid / 32) / 2, warp_col = (tid / 32) % 2;  // this warp's 32x32 quarter of the block tile
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;        // first row and column of y for this block
  const int half_k = K / 2, groups = K / group_size;

  wmma::fragment<wmma::accumulator, WMMA_DIM, WMMA_DIM, WMMA_DIM, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    // x tile: 64 rows of 16 half pairs. K is even, so a pair (k, k + 1) with k even is wholly inside or outside x,
    // and 4-byte aligned: one __half2 load each.
    for (int p = tid; p < BM * BK / 2; p += THREADS) {
      const int r = p / (BK / 2), c = 2 * (p % (BK / 2));
      const int m = row0 + r, k = k0 + c;
      __half2 v = __float2half2_rn(0.0f);
      if (m < M && k < K) v = *reinterpret_cast<const __half2*>(x + (size_t)m * K + k);
      *reinterpret_cast<__half2*>(&Xs[r][c]) = v;
    }
    // W tile: 64 rows of 16 bytes of w_q, each byte two weights sharing one scale (group_size is even).
    for (int p = tid; p < BN * BK / 2; p += THREADS) {
      const int r = p / (BK / 2), b = p % (BK / 2);
      const int n = col0 + r, i = k0 / 2 + b;
      __half2 w = __float2half2_rn(0.0f);
      if (n < N && i < half_k) {
        const unsigned byte = w_q[(size_t)n * half_k + i];
        const float scale = __half2float(scales[(size_t)n * groups + (2 * i) / group_size]);
        w = __floats2half2_rn((float)((int)(byte >> 4) - 8) * scale, (float)((int)(byte & 0xFu) - 8) * scale);
      }
      *reinterpret_cast<__half2*>(&Ws[r][2 * b]) = w;  // low half: weight 2i (high nibble); high half: 2i + 1
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += WMMA_DIM) {
      wmma::fragment<wmma::matrix_a, WMMA_DIM, WMMA_DIM, WMMA_DIM, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, WMMA_DIM, WMMA_DIM, WMMA_DIM, __half, wmma::col_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &Xs[warp_row * 32 + i * WMMA_DIM][kk], S_LD);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Ws[warp_col * 32 + j * WMMA_DIM][kk], S_LD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // the next step overwrites the tiles
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[warp_row * 32 + i * WMMA_DIM][warp_col * 32 + j * WMMA_DIM], acc[i][j], C_LD,
                              wmma::mem_row_major);
  __syncthreads();
  for (int p = tid; p < BM * BN; p += THREADS) {
    const int r = p / BN, c = p % BN;
    const int m = row0 + r, n = col0 + c;
    if (m < M && n < N) y[(size_t)m * N + n] = __float2half(Cs[r][c]);
  }
}

extern "C" void solve(const __half* x, const uint8_t* w_q, const __half* scales, __half* y, int M, int N, int K,
                      int group_size) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM);
  int4_matmul_wmma<<<blocks, THREADS>>>(x, w_q, scales, y, M, N, K, group_size);
  cudaDeviceSynchronize();
}
