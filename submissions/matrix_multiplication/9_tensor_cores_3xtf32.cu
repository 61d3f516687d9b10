// Rung 9: tensor cores at FP32 accuracy: each float split into two TF32 halves, each product made of three TF32
// mma.sync (3xTF32), fed by cp.async and ldmatrix.
// Measured on an H100 (judge ladder, budget 0.25 s): 2.37 ms at 4096^3, 58.0 TFLOP/s, 1.12x cuBLAS's FP32 SGEMM
// (which uses no tensor cores); 3.35 ms, 1.16x, at 6000x3000x5000. Rung 8 runs at 0.83x on both.
// What changed since rung 8, and why:
// - Rung 8 is bounded by the FP32 pipes: one FMA instruction per scheduler per clock, 94% of its instructions FMAs,
//   and no way left in CUDA C to issue more of them. An H100's tensor cores run TF32 at about 5x the FP32 FMA
//   rate (cuBLAS 355 TFLOP/s against 65 for FMAs), but TF32 keeps only 10 bits of mantissa: one TF32 product per
//   term would miss this challenge's tolerance (atol 1e-3, rtol 1e-4) by an order of magnitude at 4096^3.
//   Splitting x = big + small, big = x rounded to TF32 and small = x - big (exact in FP32; the tensor core keeps
//   its top 11 bits), recovers about 21 bits of each operand, and a*b = big_a*big_b + big_a*small_b +
//   small_a*big_b misses only small_a*small_b (< 2^-20 |ab|) and the truncation of the small halves: the same
//   order of error as FP32 FMAs (CUTLASS calls it "3xTF32").
// - The sums are not left to the tensor cores alone. Accumulating all 3 x N / 8 tile products in one accumulator
//   failed this challenge's tests at 4096^3 on an H100 (774 elements off by up to 1.8e-3): the tensor core adds
//   into its FP32 accumulator with truncation, so its error is biased, and at the size of the running sum it grows
//   linearly over 1536 adds. Here each tile of depth 32 is summed by the tensor cores in a fresh accumulator (12
//   adds, small terms first within each step of 8) and then added to the running sum with an ordinary FP32 add,
//   which rounds to nearest: 64 FADDs per 192 mma.sync. Measured on an H100 against a double-precision product, at
//   4096^3: max abs error 3.5e-4 (rung 8: 3.0e-4). Promoting after every step of 8 (192 FADDs) was as accurate
//   (3.8e-4) and 12% slower. The order of the sum differs from rungs 1-8 (per tile of 32, then along k).
// - The split costs 2 instructions (cvt.rna.tf32, FADD) per fragment register: per warp and step of 8 along the
//   inner dimension, 24 registers (4 A fragments of 4, 4 B fragments of 2) feed 48 mma.sync. With the tile's
//   partial sums, 128 accumulators per thread: ptxas takes 249 registers, one block of 8 warps per SM.
// - Block: 8 warps, a 128x128 tile of C, each warp 64x32 (4 x 4 m16n8 tiles: 64 running sums per thread); tiles
//   of depth 32, 3 of them in flight by cp.async (zero-filled past the edges, 4-byte copies when a row is not
//   16-byte aligned), one __syncthreads per tile, raster in groups of 8 tile rows as in rung 8. Measured on an H100
//   against this shape: 16 warps of 32x32 (123 registers, promoting every step) 0.89x cuBLAS at 4096^3, 0.80x of
//   this rung; 4 stages instead of 3, no faster.
// - Shared memory: A rows padded to 36 floats, so the 8 rows of an ldmatrix phase (16 bytes each) start 4 banks
//   apart: conflict-free. ldmatrix works on 16-bit elements, but an 8x8 matrix of b16 is an 8x4 matrix of 32-bit
//   values, and the lane that receives (row i, b16 columns 2j, 2j+1) holds exactly the TF32 A element (i, j) that
//   mma.m16n8k8 wants in that lane. B stays k-major (rows of 128 floats padded to 136): a B fragment is
//   B(k0 + lane % 4, n0 + lane / 4), and with the pad the 32 lanes of one scalar read hit 32 distinct banks.
#include <cstdint>

#include <cuda_runtime.h>

#ifndef BM
#define BM 128       // rows of C per block
#endif
#ifndef BN
#define BN 128       // columns of C per block
#endif
#define BK 32        // depth of one tile
#ifndef STAGES
#define STAGES 3     // tiles in shared memory at once
#endif
#ifndef WARPS_M
#define WARPS_M 2    // warps down the block tile
#endif
#ifndef WARPS_N
#define WARPS_N 4    // warps across
#endif
#ifndef MINB
#define MINB 1       // blocks per SM asked of the compiler
#endif
#define THREADS (32 * WARPS_M * WARPS_N)
#define WM (BM / WARPS_M)  // rows of C per warp
#define WN (BN / WARPS_N)  // columns of C per warp
#define MT (WM / 16)       // m16 tiles per warp
#define NT (WN / 8)        // n8 tiles per warp
#define A_LD (BK + 4)      // floats per row of an A tile in shared memory
#define B_LD (BN + 8)      // floats per row of a B tile in shared memory
#define GROUP_M 8          // tile rows per raster group

constexpr int A_STAGE = BM * A_LD, B_STAGE = BK * B_LD;       // floats per stage
constexpr int SMEM_BYTES = STAGES * (A_STAGE + B_STAGE) * 4;  // 105 KB for 3 stages: needs the opt-in
// (4 stages, 140 KB, measured no faster on an H100.)

__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem, int src_bytes) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_4(void* smem, const void* gmem, int src_bytes) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// 4 consecutive floats of row r of a matrix with `cols` columns, from its element (r, c), c a multiple of 4, into
// dst, zeros for those outside (as in rung 8). VEC: cols % 4 == 0, one 16-byte copy.
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

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const float* p) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(s));
}

// x = big + small: big is x rounded to the nearest TF32, small the rest (exact in FP32).
__device__ __forceinline__ void split(uint32_t x, uint32_t& big, uint32_t& small) {
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(big) : "f"(__uint_as_float(x)));
  small = __float_as_uint(__uint_as_float(x) - __uint_as_float(big));
}

// d += a * b, one m16n8k8 TF32 tile product with FP32 accumulation.
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// d = a * b (the accumulator starts at zero).
__device__ __forceinline__ void mma_tf32_zero(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %10, %10, %10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS, MINB) matmul_3xtf32(const float* A, const float* B, float* C, int M, int N,
                                                               int K) {
  extern __shared__ __align__(16) float smem[];
  float* const As = smem;                     // [STAGES][BM][A_LD]
  float* const Bs = smem + STAGES * A_STAGE;  // [STAGES][BK][B_LD]

  const int tiles_m = (M + BM - 1) / BM, tiles_n = (K + BN - 1) / BN;
  const int per_group = GROUP_M * tiles_n;
  const int first_m = (blockIdx.x / per_group) * GROUP_M;
  const int group_m = min(tiles_m - first_m, GROUP_M);
  const int in_group = blockIdx.x % per_group;
  const int row0 = (first_m + in_group % group_m) * BM;
  const int col0 = (in_group / group_m) * BN;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
  const int g = lane / 4, t = lane % 4;  // the mma fragments' row group and thread in group

  // Copies per tile: A is BM rows of 8 float4, B is 32 rows of BN / 4 float4; chunk q = tid + THREADS * p.
  auto load_tile = [&](int kt, int s) {
    const int k0 = kt * BK;
#pragma unroll
    for (int p = 0; p < BM * BK / 4 / THREADS; ++p) {
      const int q = tid + THREADS * p, r = q / (BK / 4), c = (q % (BK / 4)) * 4;
      copy4<VEC>(As + s * A_STAGE + r * A_LD + c, A + (size_t)(row0 + r) * N + k0 + c, A, row0 + r < M, k0 + c, N);
    }
#pragma unroll
    for (int p = 0; p < BK * BN / 4 / THREADS; ++p) {
      const int q = tid + THREADS * p, r = q / (BN / 4), c = (q % (BN / 4)) * 4;
      copy4<VEC>(Bs + s * B_STAGE + r * B_LD + c, B + (size_t)(k0 + r) * K + col0 + c, B, k0 + r < N, col0 + c, K);
    }
  };

  float acc[MT][NT][4];
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  const int tiles = (N + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) load_tile(s, s);
    cp_async_commit();
  }

  // ldmatrix row address of this lane, within a stage: matrix j = lane / 8 is rows +8 * (j % 2), columns +4 * (j / 2).
  const int a_row = wm + (lane % 8) + 8 * ((lane / 8) % 2), a_col = 4 * (lane / 16);

  for (int kt = 0; kt < tiles; ++kt) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of tile kt have landed ...
    __syncthreads();              // ... everyone's have, and everyone is done with tile kt - 1's stage
    {
      const int next = kt + STAGES - 1;  // refill the stage of tile kt - 1
      if (next < tiles) load_tile(next, next % STAGES);
      cp_async_commit();
    }
    float part[MT][NT][4];  // this tile's sums, added to acc in FP32 at its end (see above)
    const float* as = As + (kt % STAGES) * A_STAGE;
    const float* bs = Bs + (kt % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      uint32_t a_big[MT][4], a_small[MT][4], b_big[NT][2], b_small[NT][2];
#pragma unroll
      for (int i = 0; i < MT; ++i) {
        uint32_t raw[4];
        ldmatrix_x4(raw, as + (a_row + 16 * i) * A_LD + kk + a_col);
#pragma unroll
        for (int e = 0; e < 4; ++e) split(raw[e], a_big[i][e], a_small[i][e]);
      }
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const float* b = bs + (kk + t) * B_LD + wn + 8 * j + g;
        split(__float_as_uint(b[0]), b_big[j][0], b_small[j][0]);
        split(__float_as_uint(b[4 * B_LD]), b_big[j][1], b_small[j][1]);
      }
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          if (kk == 0)
            mma_tf32_zero(part[i][j], a_small[i], b_big[j]);
          else
            mma_tf32(part[i][j], a_small[i], b_big[j]);
          mma_tf32(part[i][j], a_big[i], b_small[j]);
          mma_tf32(part[i][j], a_big[i], b_big[j]);
        }
    }
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][j][e] += part[i][j][e];
  }
  cp_async_wait<0>();  // no copy may still be writing shared memory when the block exits

  // acc[i][j]: rows r = row0 + wm + 16 i + g (elements 0, 1) and r + 8 (2, 3), columns c = col0 + wn + 8 j + 2 t, +1.
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = row0 + wm + 16 * i + g + 8 * h;
      if (r >= M) continue;
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const int c = col0 + wn + 8 * j + 2 * t;
        float* out = C + (size_t)r * K + c;
        if (VEC && c + 1 < K) {  // K even: (r * K + c) is even, the pair is 8-byte aligned
          *reinterpret_cast<float2*>(out) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
        } else {
          if (c < K) out[0] = acc[i][j][2 * h];
          if (c + 1 < K) out[1] = acc[i][j][2 * h + 1];
        }
      }
    }
}

template <bool VEC>
static cudaError_t launch(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool opted_in = false;  // once per process and instantiation
  if (!opted_in) {
    const cudaError_t e =
        cudaFuncSetAttribute(matmul_3xtf32<VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    if (e != cudaSuccess) return e;
    opted_in = true;
  }
  const int blocks = ((M + BM - 1) / BM) * ((K + BN - 1) / BN);
  matmul_3xtf32<VEC><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  if (N % 4 == 0 && K % 4 == 0)
    launch<true>(A, B, C, M, N, K);
  else
    launch<false>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
