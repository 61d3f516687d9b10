// Rung 7: two shared-memory stages filled by cp.async: the next tile streams in while FMAs run on this one.
// Until rung 6 every tile went global -> registers -> shared memory, and the block waited at a barrier for each load
// (only the second block on the SM kept the FMA units busy). cp.async (sm_80+) copies global -> shared memory
// without registers and without waiting: we issue tile t+1's copies into the other stage, compute on tile t, and
// only then wait for them. Out-of-range elements are written as zeros by the copy itself (its source-size operand
// is 0 for them), so the inner loop still needs no bounds checks. Still two blocks per SM (128 registers, 36 KB of
// shared memory each), now both computing most of the time.
// A cp.async of 16 bytes copies 4 consecutive floats as they are, so A's tile can no longer be transposed on the
// way in: it now stays row-major, As[m][k], and a thread reads a float4 along k, the values of 4 steps of k for one
// row. A thread's 8 rows of A thus cost 8 float4 reads per 4 steps of k: 2 per step, as before. Bank arithmetic
// (32 banks of 4 bytes; a 16-byte read by a warp takes one pass when its distinct float4 fall in distinct groups of
// 4 banks): A's rows are padded from 16 to 20 floats, so row r, float4 q starts in bank group (5 * r + q) % 8. The 8
// rows a warp reads at once (lanes lr = 0..7) are r = wm + lr + 8 * i, with wm and 8 * i multiples of 8: groups
// 5 * lr + const, all 8 distinct since 5 is odd. That is why a lane's 8 rows are now interleaved (lr, lr + 8, ...)
// rather than rung 6's two runs of 4 (rows lr * 4 + i would give groups 20 * lr + ..., only 2 distinct).
#include <cuda_runtime.h>

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 16   // depth of one A/B tile
#define WM 64   // rows of C per warp
#define WN 32   // columns of C per warp
#define TM 8    // rows of C per thread: lr, lr + 8, ..., lr + 56 within the warp tile
#define TN 8    // columns of C per thread: 4 at lc * 4 and 4 at WN / 2 + lc * 4
#define A_LD (BK + 4)  // floats per row of the A tile in shared memory (padded, see above)
#define WARPS_N (BN / WN)                   // 4 warps across, 2 down
#define THREADS ((BM / WM) * WARPS_N * 32)  // 256

// cp.async: copy 16 (or 4) bytes global -> shared; only src_bytes of them are read, the rest are written as zero.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem, int src_bytes) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_4(void* smem, const void* gmem, int src_bytes) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Wait until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Start copying 4 consecutive floats of one row of a matrix with `cols` columns, from src (its element (r, c), c a
// multiple of 4) to dst (16-byte aligned), writing zeros for those outside the matrix: row_in says r is inside,
// and column c + i is inside when c + i < cols. VEC: cols % 4 == 0, so the four are all inside or all outside, and
// src is 16-byte aligned: one 16-byte copy. Otherwise four 4-byte copies. A copy of 0 bytes still gets a valid
// address (X, the matrix itself), though it reads nothing from it.
template <bool VEC>
__device__ __forceinline__ void copy4(float* dst, const float* src, const float* X, bool row_in, int c, int cols) {
  if constexpr (VEC) {
    const bool in = row_in && c < cols;
    cp_async_16(dst, in ? src : X, in ? 16 : 0);
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const bool in = row_in && c + i < cols;
      cp_async_4(dst + i, in ? src + i : X, in ? 4 : 0);
    }
  }
}

__device__ __forceinline__ float component(const float4& v, int i) {  // i is a constant after unrolling
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS, 2)
    matmul_cp_async(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][BM][A_LD];  // row-major A tiles, one per stage
  __shared__ __align__(16) float Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int row0 = blockIdx.y * BM;                         // first row of C for this block
  const int col0 = blockIdx.x * BN;                         // first column of C for this block
  const int trow = (warp / WARPS_N) * WM + lane / 4;        // this lane's first row, within the block tile
  const int tcol = (warp % WARPS_N) * WN + (lane % 4) * 4;  // its first column
  // Copies per tile, two float4 of each per thread, p = 0, 1. A (128 x 16 = 512 float4): row a_r + 64 * p, float4
  // a_q of the row; the 8 lanes that copy together (lanes 0-7, 8-15, ...) take 8 consecutive rows, groups
  // (5 * r + q) % 8 all distinct. B (16 x 128): row b_r + 8 * p, columns b_c..b_c+3, a warp one 512-byte run.
  const int a_r = warp * 8 + lane % 8, a_q = lane / 8;
  const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;

  // Where this thread's copies come from, for k-tile 0; tile t adds t * BK columns (A) or t * BK rows (B).
  const float* a_src = A + (row0 + a_r) * N + a_q * 4;
  const float* b_src = B + b_r * K + col0 + b_c;
  auto load_tile = [&](int t, int s) {  // start copying k-tile t into stage s
    const int k0 = t * BK;
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int r = a_r + 64 * p;
      copy4<VEC>(&As[s][r][a_q * 4], a_src + 64 * p * N + k0, A, row0 + r < M, k0 + a_q * 4, N);
    }
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int r = b_r + 8 * p;
      copy4<VEC>(&Bs[s][r][b_c], b_src + (k0 + 8 * p) * K, B, k0 + r < N, col0 + b_c, K);
    }
  };

  float acc[TM][TN] = {};
  const int tiles = (N + BK - 1) / BK;

  load_tile(0, 0);
  cp_async_commit();
  for (int t = 0; t < tiles; ++t) {
    const int s = t & 1;
    // Stage s ^ 1 was last read in iteration t - 1, which every thread finished (the barrier at its end).
    if (t + 1 < tiles) load_tile(t + 1, s ^ 1);
    cp_async_commit();     // one group per iteration (maybe empty), so the count below is always right
    cp_async_wait<1>();    // all but the newest group done: this thread's copies of tile t have landed
    __syncthreads();       // ... and every thread's
#pragma unroll
    for (int g = 0; g < BK; g += 4) {
      float4 a[TM];  // a[i]: row trow + 8 * i, k = g..g+3
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = *reinterpret_cast<const float4*>(&As[s][trow + 8 * i][g]);
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        const float4 b0 = *reinterpret_cast<const float4*>(&Bs[s][g + kk][tcol]);
        const float4 b1 = *reinterpret_cast<const float4*>(&Bs[s][g + kk][tcol + WN / 2]);
        const float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
        for (int i = 0; i < TM; ++i) {
          const float av = component(a[i], kk);
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] += av * bv[j];
        }
      }
    }
    __syncthreads();  // every thread is done with stage s before iteration t + 1 copies tile t + 2 into it
  }

  // acc[i][j]: row trow + 8 * i, column tcol + (j / 4) * (WN / 2) + j % 4.
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + 8 * i;
    if (r >= M) break;
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
    matmul_cp_async<true><<<blocks, THREADS>>>(A, B, C, M, N, K);
  else
    matmul_cp_async<false><<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
