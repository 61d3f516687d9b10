// Rung 8: 8x16 outputs per thread, 4 cp.async stages, 1 barrier per tile, register prefetch, 2 blocks per SM.
// What changed since rung 7, and why each change pays on an H100:
// - 128 accumulators per thread (8 rows x 16 columns) instead of 64: per step of k a thread reads 2 float4 of A
//   (amortised: 8 float4 per 4 steps) and 4 of B for 128 FMAs; per tile of 8 steps, 1024 FMAs against 48 shared
//   reads, 2 copies of A, 2 of B, a barrier and some address arithmetic: ~94% of the issued instructions are FMAs.
//   A scheduler issues one warp instruction per clock and an FMA instruction fills its 32 FP32 lanes for that
//   clock, so every other instruction costs an FMA slot: this ratio bounds the speed.
// - Register budget: 128 accumulators + 8 float4 of A (32) + the next group's A (up to 32 while the old one is
//   used up) + 4 float4 of B twice (32) + addresses: ~210 live at the peak. ptxas takes 255 (0 spills), so a warp
//   holds 32 x 256 registers and an SM (65536) at most 8 warps. A block is 4 warps (128 threads, a 128x128 tile,
//   each warp 64x64) and __launch_bounds__(128, 2) asks for two blocks per SM: the same 8 warps as one block of
//   256, but a block waiting at its barrier leaves the other one issuing, and the grid comes in finer waves (264
//   tiles at once). Against one block of 8 warps with a 128x256 tile (this rung's earlier form) on an H100, within
//   run-to-run spread: 3.18-3.19 ms against 3.19-3.22 at 4096^3, 4.45-4.71 against 4.55-4.58 at 6000x3000x5000.
// - With 2 warps per scheduler there is little latency hiding by warps, so the latency is hidden inside each warp:
//   the fragments for step k + 1 are loaded from shared memory while the FMAs of step k run, and tiles arrive
//   STAGES - 1 = 3 tiles ahead by cp.async.
// - One __syncthreads per tile, placed before the FMAs of the tile's last step (whose fragments are already in
//   registers): after it the stage just finished is free (refilled at once with tile t + STAGES) and tile t + 1
//   has landed, so its first fragments load while those last 128 FMAs run: no empty pipeline at tile boundaries.
// - Shared memory (dynamic; under the 48 KB a block gets without opting in): 4 stages x (A 128 x 12 + B 8 x 128
//   floats) = 40 KB per block. BK = 8 keeps the fully unrolled tile loop at ~1024 FMAs, gentle on the instruction
//   cache (BK = 16 with 3 stages measured 3-6% slower). A's rows are padded to 12 floats: row r, float4 q is in
//   bank group (3 * r + q) % 8, and the 8 rows a warp reads at once (r = wm + lr + 8 * i, lr = 0..7) fall in 8
//   distinct groups (3 is odd); the copies are laid out so that any 8 lanes write 8 consecutive rows of one float4
//   column (distinct groups again). B needs no padding: a warp reads 4 consecutive float4 per read and writes 32
//   consecutive ones per copy.
// - Raster: blocks are numbered down groups of 8 tile rows before moving right, so the blocks running at once
//   share 8 row-panels of A and a few dozen column-panels of B, which stay in L2, instead of streaming all of B
//   per wave.
// What is left (Nsight Compute on an H100, 4096^3, clocks locked to base): SM throughput 73% of peak, achieved
// occupancy 12.5% (the register limit above), warps stalled mostly "not selected" (30%: another ready warp took
// the issue slot, the scheduler is busy) and "dispatch stall" (18%: the dispatcher held back an issued FMA, the
// signature of register-bank conflicts between an FMA's three source registers, which CUDA C cannot control:
// cuBLAS's SGEMM is hand-scheduled machine code). Measured: 0.83-0.84x cuBLAS at 4096^3, 0.83-0.88x at
// 6000x3000x5000 (two runs on H100s).
// Edges as in rung 7: out-of-range elements are zero-filled by the copies themselves (16-byte copies when
// N % 4 == 0 and K % 4 == 0, 4-byte copies otherwise), stores of C are predicated. Each output is one float sum in
// increasing k, as in every rung before.
#include <cuda_runtime.h>

#define BM 128       // rows of C per block
#define BN 128       // columns of C per block
#define BK 8         // depth of one tile
#define STAGES 4     // tiles in shared memory at once
#define WM 64        // rows of C per warp (2 warps down)
#define WN 64        // columns of C per warp (2 warps across)
#define TM 8         // rows of C per thread: lr, lr + 8, ..., lr + 56 within the warp tile (lr = lane / 4)
#define TN 16        // columns of C per thread: 4 float4 at lc * 4 + 16 * j within the warp tile (lc = lane % 4)
#define A_LD (BK + 4)  // floats per row of an A tile in shared memory (padded; A_LD / 4 odd)
#define THREADS 128  // 4 warps: 2 down x 2 across
#define GROUP_M 8    // tile rows per raster group

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

constexpr int A_STAGE = BM * A_LD, B_STAGE = BK * BN;  // floats per stage
constexpr int SMEM_BYTES = STAGES * (A_STAGE + B_STAGE) * 4;  // 40 KB: no opt-in needed (<= 48 KB)

template <bool VEC>
__global__ void __launch_bounds__(THREADS, 2) matmul_tuned(const float* A, const float* B, float* C, int M, int N,
                                                           int K) {
  constexpr int TN4 = TN / 4;  // float4 of B per thread per step of k
  extern __shared__ __align__(16) float smem[];
  float* const As = smem;                     // [STAGES][BM][A_LD]
  float* const Bs = smem + STAGES * A_STAGE;  // [STAGES][BK][BN]

  // Raster: block b -> tile (tm, tn), going down GROUP_M tile rows, then right, then to the next group of rows.
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (K + BN - 1) / BN;
  const int per_group = GROUP_M * tiles_n;
  const int first_m = (blockIdx.x / per_group) * GROUP_M;
  const int group_m = min(tiles_m - first_m, GROUP_M);
  const int in_group = blockIdx.x % per_group;
  const int row0 = (first_m + in_group % group_m) * BM;  // first row of C for this block
  const int col0 = (in_group / group_m) * BN;            // first column of C for this block

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int trow = (warp / 2) * WM + lane / 4;        // this lane's first row (of 8, 8 apart), within the tile
  const int tcol = (warp % 2) * WN + (lane % 4) * 4;  // its first column (of TN / 4 float4, 16 apart)

  // Copies per tile. A (128 x 8: 256 float4): 2 per thread, p = 0, 1: row a_r + 64 p, float4 a_q; a warp's lanes
  // 0-15 take 16 consecutive rows, lanes 16-31 the same rows' other float4 (a whole 32-byte sector per row).
  // B (8 x 128: 256 float4): chunk q = tid + 128 * p, p = 0..1, is row q / 32, columns (q % 32) * 4..+3; a warp
  // copies one whole row of the tile.
  const int a_r = warp * 16 + lane % 16, a_q = lane / 16;
  const float* const a_src = A + (size_t)(row0 + a_r) * N + a_q * 4;  // k-tile t adds t * BK, p adds 64 rows
  auto load_tile = [&](int t, int s) {  // start copying k-tile t into stage s
    const int k0 = t * BK;
#pragma unroll
    for (int p = 0; p < 2; ++p)
      copy4<VEC>(As + s * A_STAGE + (a_r + 64 * p) * A_LD + a_q * 4, a_src + (size_t)64 * p * N + k0, A,
                 row0 + a_r + 64 * p < M, k0 + a_q * 4, N);
#pragma unroll
    for (int p = 0; p < BK * BN / 4 / THREADS; ++p) {
      const int q = tid + THREADS * p;
      const int r = q / (BN / 4), c = (q % (BN / 4)) * 4;
      copy4<VEC>(Bs + s * B_STAGE + r * BN + c, B + (size_t)(k0 + r) * K + col0 + c, B, k0 + r < N, col0 + c, K);
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  const int tiles = (N + BK - 1) / BK;
  // Prologue: tiles 0..STAGES-1 into stages 0..STAGES-1, one commit group each (empty past the last tile).
#pragma unroll
  for (int s = 0; s < STAGES; ++s) {
    if (s < tiles) load_tile(s, s);
    cp_async_commit();
  }
  cp_async_wait<STAGES - 1>();  // group 0 (tile 0) done for this thread ...
  __syncthreads();              // ... and for all

  // Fragments of the current step: a[i] = A(row trow + 8 i, k..k+3 of the current group of 4), b[j] = B(k, the
  // 4 columns tcol + 16 j..). The first ones: tile 0, step 0.
  int stage = 0;
  const float* as = As;
  const float* bs = Bs;
  float4 a[TM], b[TN4];
#pragma unroll
  for (int i = 0; i < TM; ++i) a[i] = *reinterpret_cast<const float4*>(as + (trow + 8 * i) * A_LD);
#pragma unroll
  for (int j = 0; j < TN4; ++j) b[j] = *reinterpret_cast<const float4*>(bs + tcol + 16 * j);

  for (int t = 0; t < tiles; ++t) {
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      // Load the fragments of step k + 1 (of this tile, or step 0 of the next) while step k's FMAs run.
      float4 an[TM], bn[TN4];
      if (k + 1 < BK) {
        if ((k + 1) % 4 == 0) {
#pragma unroll
          for (int i = 0; i < TM; ++i) an[i] = *reinterpret_cast<const float4*>(as + (trow + 8 * i) * A_LD + k + 1);
        }
#pragma unroll
        for (int j = 0; j < TN4; ++j) bn[j] = *reinterpret_cast<const float4*>(bs + (k + 1) * BN + tcol + 16 * j);
      } else {
        // Every read of this tile's stage is done (step BK-1's fragments are in registers). Wait for tile t + 1,
        // make every thread's copies of it visible, and refill the stage just finished with tile t + STAGES.
        if (t + 1 < tiles) {
          cp_async_wait<STAGES - 2>();  // committed so far: STAGES + t groups; groups 0..t+1 are done
          __syncthreads();
          if (t + STAGES < tiles) load_tile(t + STAGES, stage);
          cp_async_commit();
        }
        // (After the last tile these read a stale stage; the values are never used.)
        stage = stage + 1 == STAGES ? 0 : stage + 1;
        as = As + stage * A_STAGE;
        bs = Bs + stage * B_STAGE;
#pragma unroll
        for (int i = 0; i < TM; ++i) an[i] = *reinterpret_cast<const float4*>(as + (trow + 8 * i) * A_LD);
#pragma unroll
        for (int j = 0; j < TN4; ++j) bn[j] = *reinterpret_cast<const float4*>(bs + tcol + 16 * j);
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const float av = component(a[i], k % 4);
#pragma unroll
        for (int j = 0; j < TN4; ++j) {
          acc[i][4 * j + 0] += av * b[j].x;
          acc[i][4 * j + 1] += av * b[j].y;
          acc[i][4 * j + 2] += av * b[j].z;
          acc[i][4 * j + 3] += av * b[j].w;
        }
      }
#pragma unroll
      for (int j = 0; j < TN4; ++j) b[j] = bn[j];
      if ((k + 1) % 4 == 0) {
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = an[i];
      }
    }
  }

  // acc[i][4 j + e]: row trow + 8 i, column tcol + 16 j + e.
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + 8 * i;
    if (r >= M) break;
#pragma unroll
    for (int j = 0; j < TN4; ++j) {
      const int c = col0 + tcol + 16 * j;
      if constexpr (VEC) {  // K % 4 == 0: the four columns c..c+3 are all inside C or all outside it
        if (c < K)
          *reinterpret_cast<float4*>(&C[(size_t)r * K + c]) =
              make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (c + e < K) C[(size_t)r * K + c + e] = acc[i][4 * j + e];
      }
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const int blocks = ((M + BM - 1) / BM) * ((K + BN - 1) / BN);
  if (N % 4 == 0 && K % 4 == 0)
    matmul_tuned<true><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K);
  else
    matmul_tuned<false><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
