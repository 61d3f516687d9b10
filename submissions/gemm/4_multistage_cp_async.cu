// Rung 4: rung 3's mma.sync/ldmatrix kernel fed by a 4-stage cp.async pipeline in dynamic shared memory.
// Rung 3 loaded each tile into registers and stored it to shared memory itself, with one buffer: every step waited
// for the barrier before the store and for the store before the math. Here 16-byte cp.async.cg copies go from global
// memory straight to shared memory (bypassing L1 and the registers) into a ring of 4 stages, 3 tiles ahead of the
// math: cp.async.wait_group lets a thread continue as soon as its copies for the current tile have landed, so the
// global-memory latency hides behind the mma of the tiles in between. Chunks past the edges of A or B are copied with
// a source size of 0, which zero-fills them. 64 KB of shared memory per block needs the opt-in attribute; with at most
// 128 registers two blocks (16 warps) share an SM. Rows that are not 16-byte aligned (K or N not a multiple of 8)
// cannot use cp.async; that instantiation stages them with ordinary loads, through the same ring.
#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 128       // rows of C per block
#define BN 128       // columns of C per block
#define BK 32        // depth of one staged A/B tile
#define STAGES 4     // tiles in flight
#define THREADS 256  // 8 warps, 2 (rows) x 4 (columns)
#define WM 64        // rows of C per warp
#define WN 32        // columns of C per warp
#define MI (WM / 16) // m16 tiles per warp: 4
#define NI (WN / 8)  // n8 tiles per warp: 4
#define A_CHUNKS (BM * BK / 8)                     // 16-byte chunks of one A tile: 512 (8 KB)
#define B_CHUNKS (BK * BN / 8)                     // 16-byte chunks of one B tile: 512 (8 KB)
#define STAGE_CHUNKS (A_CHUNKS + B_CHUNKS)         // 16 KB per stage
#define SMEM_BYTES (STAGES * STAGE_CHUNKS * 16)    // 64 KB

// Shared layout of one stage, in 16-byte chunks of 8 halves (as in rung 3).
//   A tile: 128 rows x 4 chunks; logical chunk (r, c) at r * 4 + (c ^ ((r >> 1) & 3)). An ldmatrix phase reads rows
//     r0..r0+7 (r0 % 8 == 0) at one logical c: bank group 4 (r & 1) + (c ^ ((r >> 1) & 3)), distinct over the 8 rows.
//   B tile: 32 rows (k) x 16 chunks; logical chunk (k, c) at k * 16 + (c ^ (k & 7)): a phase reads rows k0..k0+7 at
//     one c, bank group (c ^ (k & 7)) & 7, distinct over the 8 rows.
__device__ __forceinline__ int a_chunk(int r, int c) { return r * (BK / 8) + (c ^ ((r >> 1) & 3)); }
__device__ __forceinline__ int b_chunk(int k, int c) { return k * (BN / 8) + (c ^ (k & 7)); }

__device__ __forceinline__ uint32_t pack_halves(half lo, half hi) {
  return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}

// 8 halves of row r, columns c..c+7, of a rows x cols row-major matrix, zeros outside it, element by element (the
// path for rows that are not 16-byte aligned).
__device__ __forceinline__ uint4 load8_scalar(const half* __restrict__ P, int rows, int cols, int r, int c) {
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  if (r < rows && c < cols) {
    const half* p = P + static_cast<size_t>(r) * cols + c;
    const half z = __float2half(0.0f);
    half h[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) h[e] = (c + e < cols) ? p[e] : z;
    v.x = pack_halves(h[0], h[1]);
    v.y = pack_halves(h[2], h[3]);
    v.z = pack_halves(h[4], h[5]);
    v.w = pack_halves(h[6], h[7]);
  }
  return v;
}

// 16-byte asynchronous copy global -> shared, L1 bypassed (.cg). src_size = 0 reads nothing and writes 16 zero bytes;
// src must still be a valid global address, so callers pass the matrix base then.
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool in_range) {
  const int src_size = in_range ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(__cvta_generic_to_global(src)),
               "r"(src_size)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Wait until at most n of this thread's committed groups are still in flight.
template <int n>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory");
}

// ldmatrix.x4: lanes 8j..8j+7 give the addresses of the 8 rows (16 bytes each) of matrix j; afterwards register j of
// lane l holds row l / 4, elements 2 (l % 4) and 2 (l % 4) + 1 of matrix j. With .trans each matrix is transposed on
// the way: register j of lane l holds elements (row 2 (l % 4), column l / 4) and (row 2 (l % 4) + 1, column l / 4).
__device__ __forceinline__ void ldmatrix_x4(uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3, uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3,
                                                  uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
}

// d += a b for one 16x8x16 tile, half inputs, float accumulators. With g = lane / 4 and t = lane % 4 (PTX ISA,
// "Matrix Fragments for mma.m16n8k16"):
//   a[0] = A[g][2t, 2t+1]     a[1] = A[g+8][2t, 2t+1]     a[2] = A[g][2t+8, 2t+9]     a[3] = A[g+8][2t+8, 2t+9]
//   b[0] = B[2t, 2t+1][g]     b[1] = B[2t+8, 2t+9][g]     (two k values of column g in each register)
//   d[0], d[1] = D[g][2t, 2t+1]                           d[2], d[3] = D[g+8][2t, 2t+1]
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// C[r][c], C[r][c+1] = alpha * s + beta * C (C is read only where beta != 0, as the reference does), rounded once.
__device__ __forceinline__ void store_pair(half* C, int M, int N, int r, int c, float s0, float s1, float alpha,
                                           float beta) {
  if (r >= M || c >= N) return;
  half* p = C + static_cast<size_t>(r) * N + c;
  if ((N & 1) == 0) {  // c is even: (r N + c) is even, so p is 4-byte aligned, and c + 1 < N
    float2 old = make_float2(0.0f, 0.0f);
    if (beta != 0.0f) old = __half22float2(*reinterpret_cast<const half2*>(p));
    *reinterpret_cast<half2*>(p) = __floats2half2_rn(alpha * s0 + beta * old.x, alpha * s1 + beta * old.y);
  } else {
    p[0] = __float2half_rn(alpha * s0 + (beta != 0.0f ? beta * __half2float(p[0]) : 0.0f));
    if (c + 1 < N) p[1] = __float2half_rn(alpha * s1 + (beta != 0.0f ? beta * __half2float(p[1]) : 0.0f));
  }
}

// VEC: K % 8 == 0 and N % 8 == 0: every row of A and B starts 16-byte aligned and, chunks starting at multiples of 8
// columns, each chunk is entirely inside or entirely outside its matrix (one cp.async, full or zero-filled).
template <bool VEC>
__global__ void __launch_bounds__(THREADS, VEC ? 2 : 1)  // hot path: 2 blocks per SM, at most 128 registers
    gemm_mma_pipe(const half* __restrict__ A, const half* __restrict__ B, half* C, int M, int N, int K, float alpha,
                  float beta) {
  extern __shared__ __align__(128) uint4 smem[];  // STAGES x (A tile, B tile)
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / 4, warp_n = warp % 4;            // this warp's 64x32 slice of the block tile
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;  // first row and column of C for this block
  const uint32_t smem_base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));

  // Stage s's A tile starts at chunk s * STAGE_CHUNKS, its B tile A_CHUNKS later. 512 chunks of A (4 per row) and 512
  // of B (16 per row), 2 of each per thread; consecutive threads take consecutive chunks of a row: coalesced.
  auto load_stage = [&](int s, int k0) {
    uint4* as = smem + s * STAGE_CHUNKS;
    uint4* bs = as + A_CHUNKS;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int q = tid + i * THREADS;
      const int ar = q / 4, ac = q % 4, bk = q / 16, bc = q % 16;
      const int gr = row0 + ar, gk = k0 + ac * 8;  // A element (gr, gk..gk+7)
      const int gkb = k0 + bk, gc = col0 + bc * 8;  // B element (gkb, gc..gc+7)
      if (VEC) {
        const bool a_in = gr < M && gk < K, b_in = gkb < K && gc < N;
        cp_async16(static_cast<uint32_t>(__cvta_generic_to_shared(as + a_chunk(ar, ac))),
                   a_in ? A + static_cast<size_t>(gr) * K + gk : A, a_in);
        cp_async16(static_cast<uint32_t>(__cvta_generic_to_shared(bs + b_chunk(bk, bc))),
                   b_in ? B + static_cast<size_t>(gkb) * N + gc : B, b_in);
      } else {
        as[a_chunk(ar, ac)] = load8_scalar(A, M, K, gr, gk);
        bs[b_chunk(bk, bc)] = load8_scalar(B, K, N, gkb, gc);
      }
    }
  };

  float acc[MI][NI][4];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  const int ktiles = (K + BK - 1) / BK;
  // Prologue: tiles 0..STAGES-2 in flight, one commit group each (empty groups past the last tile keep the count).
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) load_stage(s, s * BK);
    cp_async_commit();
  }

  for (int kt = 0; kt < ktiles; ++kt) {
    // STAGES - 1 + kt groups are committed; allowing STAGES - 2 in flight means groups 0..kt are complete: this
    // thread's copies of tile kt have landed. The barrier makes everyone's visible, and also guarantees everyone has
    // finished the math of tile kt - 1, whose stage ((kt - 1) % STAGES) is refilled just below.
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    const int next = kt + STAGES - 1;
    if (next < ktiles) load_stage(next % STAGES, next * BK);
    cp_async_commit();

    const uint32_t as_base = smem_base + (kt % STAGES) * STAGE_CHUNKS * 16;
    const uint32_t bs_base = as_base + A_CHUNKS * 16;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[MI][4], b[NI][2];
      // A fragment of m16 tile i: matrices 0..3 = (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
      // (rows 8-15, k 8-15), i.e. a[0..3] above. Lane l addresses row l % 16 at k chunk kk / 8 + l / 16.
#pragma unroll
      for (int i = 0; i < MI; ++i) {
        const int r = warp_m * WM + i * 16 + (lane % 16);
        const int c = kk / 8 + lane / 16;
        ldmatrix_x4(a[i][0], a[i][1], a[i][2], a[i][3], as_base + a_chunk(r, c) * 16);
      }
      // B fragments of two n8 tiles (2jj, 2jj+1) per ldmatrix.x4.trans: matrices 0..3 = (k 0-7, n 0-7), (k 8-15,
      // n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15). Each stored row is one k with 8 consecutive n; transposed, lane l
      // gets k = 2 (l % 4), 2 (l % 4) + 1 of column n = l / 4: exactly b[0] (first 8 k) and b[1] (next 8 k) above.
      // Lane l addresses k row kk + l % 16 at n chunk (warp's first column + 16 jj) / 8 + l / 16.
#pragma unroll
      for (int jj = 0; jj < NI / 2; ++jj) {
        const int k = kk + (lane % 16);
        const int c = (warp_n * WN + jj * 16) / 8 + lane / 16;
        ldmatrix_x4_trans(b[2 * jj][0], b[2 * jj][1], b[2 * jj + 1][0], b[2 * jj + 1][1],
                          bs_base + b_chunk(k, c) * 16);
      }
#pragma unroll
      for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) mma_16816(acc[i][j], a[i], b[j][0], b[j][1]);
    }
  }
  cp_async_wait<0>();  // only empty groups can be left; drain them before the block exits

  // Epilogue straight from the accumulators: lane l holds, for m16 tile i and n8 tile j, rows g = l / 4 and g + 8,
  // columns 2 (l % 4) and 2 (l % 4) + 1.
#pragma unroll
  for (int i = 0; i < MI; ++i) {
    const int r = row0 + warp_m * WM + i * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < NI; ++j) {
      const int c = col0 + warp_n * WN + j * 8 + (lane % 4) * 2;
      store_pair(C, M, N, r, c, acc[i][j][0], acc[i][j][1], alpha, beta);
      store_pair(C, M, N, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta);
    }
  }
}

// A is M x K, B is K x N, C is M x N, all row-major device pointers.
extern "C" void solve(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM);
  if (K % 8 == 0 && N % 8 == 0) {
    cudaFuncSetAttribute(gemm_mma_pipe<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    gemm_mma_pipe<true><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K, alpha, beta);
  } else {
    cudaFuncSetAttribute(gemm_mma_pipe<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    gemm_mma_pipe<false><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K, alpha, beta);
  }
  cudaDeviceSynchronize();
}
