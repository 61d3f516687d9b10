// Rung 5: Hopper TMA + async wgmma, warp-specialised (1 producer warp, 2 consumer warpgroups), persistent.
// BUILD WITH -arch=sm_90a (wgmma is an sm_90a feature; the lead has the judge build this rung so). Built for plain
// sm_90 it still compiles and is correct: a one-time probe sees that the wgmma kernel was compiled empty and every
// call takes the fallback below.
// What changed since rung 4: mma.sync is a warp-wide 16x8x16 instruction fed from registers, so every warp spent issue
// slots on ldmatrix and address arithmetic; wgmma.mma_async is one instruction per warpgroup (4 warps) for a 64xBNx16
// product, reading both operands directly from shared memory through 64-bit matrix descriptors, and runs
// asynchronously. The copies are done by the Tensor Memory Accelerator: one thread issues cp.async.bulk.tensor for a
// whole 2-D box (described by a CUtensorMap built on the host with cuTensorMapEncodeTiled, obtained through
// cudaGetDriverEntryPointByVersion so no -lcuda is needed, and passed as a __grid_constant__ kernel parameter); the
// hardware writes it in the 128-byte swizzle that wgmma reads conflict-free, fills whatever lies outside the matrix
// with zeros (edges of A and B for free) and signals an mbarrier with the byte count. Warp specialisation: warp 8 is
// the producer (one elected lane waits for a free stage, arms the stage's "full" barrier with the expected bytes and
// issues the TMA copies), warpgroups 0 and 1 are consumers (wait for "full", issue 4 wgmma per 64-deep stage, keep
// one wgmma group in flight, and release the stage through its "empty" barrier). The kernel is persistent (one block
// per SM looping over tiles in an L2-friendly grouped order), so the producer already fills the ring for the next
// tile while the consumers run the epilogue of the current one. Tile 128 x BN, BN picked on the host from waves x BN:
// 256 at 4096^3 (2 x m64n256k16 per k16 step, 128 accumulator floats per consumer thread), 64 at 1024^3 (128 tiles
// rather than 32 of 256 on 132 SMs); 4 / 6 / 8 stages of 48 / 32 / 24 KB (192 KB) for BN = 256 / 128 / 64. No
// setmaxnreg: the consumers fit in the 224 registers that 288 threads per SM allow. The epilogue (alpha, beta, one
// rounding to half, bounds) runs on the accumulator registers with predicated half2 stores.
// TMA needs every global row stride to be a multiple of 16 bytes: when K % 8 != 0 or N % 8 != 0 (odd test sizes),
// or when the wgmma kernel or the driver entry point is unavailable, solve() runs rung 4's cp.async/mma.sync kernel,
// included below unchanged.
#include <cstdint>

#include <cuda.h>  // CUtensorMap and its enums (types only: nothing is linked from libcuda)
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000

// ============================================================================================================
// Fallback: rung 4 (4-stage cp.async ring, mma.sync m16n8k16 + ldmatrix from XOR-swizzled shared memory).
// ============================================================================================================
namespace ampere {

constexpr int BM = 128, BN = 128, BK = 32;  // block tile of C and depth of one staged tile
constexpr int STAGES = 4;
constexpr int THREADS = 256;                // 8 warps, 2 (rows) x 4 (columns)
constexpr int WM = 64, WN = 32;             // warp tile
constexpr int MI = WM / 16, NI = WN / 8;    // 4 m16 tiles x 4 n8 tiles per warp
constexpr int A_CHUNKS = BM * BK / 8;       // 16-byte chunks of one A tile: 512 (8 KB)
constexpr int B_CHUNKS = BK * BN / 8;       // 16-byte chunks of one B tile: 512 (8 KB)
constexpr int STAGE_CHUNKS = A_CHUNKS + B_CHUNKS;
constexpr int SMEM_BYTES = STAGES * STAGE_CHUNKS * 16;  // 64 KB

// A tile: 128 rows x 4 chunks, logical chunk (r, c) at r * 4 + (c ^ ((r >> 1) & 3)); B tile: 32 rows x 16 chunks,
// logical chunk (k, c) at k * 16 + (c ^ (k & 7)). Both make every 8-row ldmatrix phase hit 8 distinct bank groups.
__device__ __forceinline__ int a_chunk(int r, int c) { return r * (BK / 8) + (c ^ ((r >> 1) & 3)); }
__device__ __forceinline__ int b_chunk(int k, int c) { return k * (BN / 8) + (c ^ (k & 7)); }

__device__ __forceinline__ uint32_t pack_halves(half lo, half hi) {
  return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}

// 8 halves of row r, columns c..c+7, of a rows x cols row-major matrix, zeros outside it, element by element.
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

// 16-byte cp.async (L1 bypassed); src_size 0 writes 16 zero bytes and reads nothing (src is then the matrix base).
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool in_range) {
  const int src_size = in_range ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(__cvta_generic_to_global(src)),
               "r"(src_size)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int n>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory");
}

// ldmatrix.x4 (.trans): lanes 8j..8j+7 address the rows of matrix j; register j of lane l receives row l / 4,
// elements 2 (l % 4), 2 (l % 4) + 1 of matrix j (transposed: column l / 4, rows 2 (l % 4), 2 (l % 4) + 1).
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

// d += a b, 16x8x16; g = lane / 4, t = lane % 4: a[0] = A[g][2t..], a[1] = A[g+8][2t..], a[2] = A[g][2t+8..],
// a[3] = A[g+8][2t+8..]; b[0] = B[2t, 2t+1][g], b[1] = B[2t+8, 2t+9][g]; d[0..1] = D[g][2t..], d[2..3] = D[g+8][2t..].
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// C[r][c], C[r][c+1] = alpha * s + beta * C (C read only where beta != 0, as the reference does), rounded once.
__device__ __forceinline__ void store_pair(half* C, int M, int N, int r, int c, float s0, float s1, float alpha,
                                           float beta) {
  if (r >= M || c >= N) return;
  half* p = C + static_cast<size_t>(r) * N + c;
  if ((N & 1) == 0) {  // c is even: p is 4-byte aligned and c + 1 < N
    float2 old = make_float2(0.0f, 0.0f);
    if (beta != 0.0f) old = __half22float2(*reinterpret_cast<const half2*>(p));
    *reinterpret_cast<half2*>(p) = __floats2half2_rn(alpha * s0 + beta * old.x, alpha * s1 + beta * old.y);
  } else {
    p[0] = __float2half_rn(alpha * s0 + (beta != 0.0f ? beta * __half2float(p[0]) : 0.0f));
    if (c + 1 < N) p[1] = __float2half_rn(alpha * s1 + (beta != 0.0f ? beta * __half2float(p[1]) : 0.0f));
  }
}

// VEC: K % 8 == 0 and N % 8 == 0 (16-byte aligned rows; chunks entirely in or out): cp.async. Otherwise ordinary
// element-wise loads through the same ring.
template <bool VEC>
__global__ void __launch_bounds__(THREADS, VEC ? 2 : 1)
    gemm_mma_pipe(const half* __restrict__ A, const half* __restrict__ B, half* C, int M, int N, int K, float alpha,
                  float beta) {
  extern __shared__ __align__(128) uint4 smem[];  // STAGES x (A tile, B tile)
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / 4, warp_n = warp % 4;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const uint32_t smem_base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));

  auto load_stage = [&](int s, int k0) {
    uint4* as = smem + s * STAGE_CHUNKS;
    uint4* bs = as + A_CHUNKS;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int q = tid + i * THREADS;
      const int ar = q / 4, ac = q % 4, bk = q / 16, bc = q % 16;
      const int gr = row0 + ar, gk = k0 + ac * 8;
      const int gkb = k0 + bk, gc = col0 + bc * 8;
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
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) load_stage(s, s * BK);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait<STAGES - 2>();  // this thread's copies of tile kt have landed
    __syncthreads();              // everyone's have; everyone is done with tile kt - 1's stage
    const int next = kt + STAGES - 1;
    if (next < ktiles) load_stage(next % STAGES, next * BK);
    cp_async_commit();

    const uint32_t as_base = smem_base + (kt % STAGES) * STAGE_CHUNKS * 16;
    const uint32_t bs_base = as_base + A_CHUNKS * 16;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[MI][4], b[NI][2];
#pragma unroll
      for (int i = 0; i < MI; ++i) {
        const int r = warp_m * WM + i * 16 + (lane % 16);
        const int c = kk / 8 + lane / 16;
        ldmatrix_x4(a[i][0], a[i][1], a[i][2], a[i][3], as_base + a_chunk(r, c) * 16);
      }
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
  cp_async_wait<0>();

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

void run(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM);
  if (K % 8 == 0 && N % 8 == 0) {
    cudaFuncSetAttribute(gemm_mma_pipe<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    gemm_mma_pipe<true><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K, alpha, beta);
  } else {
    cudaFuncSetAttribute(gemm_mma_pipe<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    gemm_mma_pipe<false><<<blocks, THREADS, SMEM_BYTES>>>(A, B, C, M, N, K, alpha, beta);
  }
}

}  // namespace ampere

// ============================================================================================================
// Hopper path: TMA + mbarrier ring + wgmma, one producer warp and two consumer warpgroups, persistent blocks.
// ============================================================================================================
namespace hopper {

constexpr int BM = 128;                        // rows of C per tile: 2 consumer warpgroups x 64 rows
constexpr int BK = 64;                         // depth of one stage: 64 halves = 128 bytes = one swizzle row of A
constexpr int CONSUMERS = 2;                   // consumer warpgroups (warps 0-3 and 4-7)
constexpr int THREADS = CONSUMERS * 128 + 32;  // + the producer warp, warp 8: 288 threads
constexpr int A_BYTES = BM * BK * 2;           // 16 KB: one TMA box of A, 128 rows (m) of 128 bytes (64 k)
constexpr int B_BOX = 64;                      // columns of B per TMA box: 64 halves = 128 bytes, the swizzle span
constexpr int B_BOX_BYTES = BK * B_BOX * 2;    // 8 KB: 64 rows (k) of 128 bytes (64 n)
static_assert(A_BYTES % 1024 == 0 && B_BOX_BYTES % 1024 == 0, "boxes must keep 1024-byte alignment");
constexpr int RING_BYTES = 192 * 1024;         // shared memory for the stages (of 227 KB per block)
constexpr int GROUP_M = 8;                     // tile rows per group of the tile order (L2 reuse)

template <int BN>
struct Cfg {
  static constexpr int B_BYTES = BK * BN * 2;              // BN / 64 boxes of B
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;    // 48 / 32 / 24 KB for BN = 256 / 128 / 64
  static constexpr int STAGES = RING_BYTES / STAGE_BYTES;  // 4 / 6 / 8
  static constexpr int SMEM = STAGES * STAGE_BYTES + 1024;  // + slack to align the ring to 1024 bytes
  static constexpr int ACC = BN / 2;                       // accumulator floats per consumer thread
  static_assert(STAGE_BYTES % 1024 == 0, "every stage, A tile and B box must start 1024-byte aligned");
};

// Tile t -> (tile row tm, tile column tn). Tiles go down groups of GROUP_M tile rows first, then across, so the blocks
// running at the same time share a few rows of A and a band of B columns in L2.
__host__ __device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int& tm, int& tn) {
  const int per_group = GROUP_M * tiles_n;
  const int group = t / per_group;
  const int first = group * GROUP_M;
  const int rows = min(tiles_m - first, GROUP_M);  // the last group may have fewer tile rows
  const int in = t - group * per_group;            // < rows * tiles_n
  tm = first + in % rows;
  tn = in / rows;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers. A barrier completes a phase when its pending arrival count reaches zero and its transaction count
// (bytes announced with expect_tx, decremented by the TMA unit as data lands) is zero; the phase parity then flips.
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile(
      "{\n.reg .b64 state;\n"
      "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}\n" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile(
      "{\n.reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(bar)
      : "memory");
}
// Returns once the phase with the given parity has completed. On a fresh barrier (in phase 0) waiting for parity 1
// returns at once: that refers to the phase before phase 0, which counts as complete.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// ---- TMA: copy the 2-D box at (c0 = innermost coordinate, c1) of the tensor map into shared memory at dst, in the
// map's 128-byte swizzle; elements outside the tensor are written as zeros; the full box size is counted against
// bar's transaction count. The map lives in kernel-parameter space (__grid_constant__): its generic address is used.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::
          "r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// ---- wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4 (shared window addresses are < 256 KB: 18 bits, 14 kept after >> 4)
//   bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4
//   bits 49-51  base offset: 0, as every pattern here starts on a 1024-byte boundary (see below)
//   bits 62-63  swizzle mode: 1 = 128-byte swizzle
// The 128-byte swizzle (TMA's CU_TENSOR_MAP_SWIZZLE_128B and wgmma's mode 1 are the same map) permutes the eight
// 16-byte chunks of each 128-byte row: byte address bits [4:6] ^= bits [7:9], i.e. chunk c of row r (r counted in
// 128-byte rows from a 1024-byte boundary) is stored at chunk c ^ (r % 8). Both sides apply it to the absolute shared
// address, hence the 1024-byte alignment of every stage, A tile and B box.
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return static_cast<uint64_t>((addr & 0x3FFFFu) >> 4) | (static_cast<uint64_t>((lbo & 0x3FFFFu) >> 4) << 16) |
         (static_cast<uint64_t>((sbo & 0x3FFFFu) >> 4) << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Wait until at most n committed wgmma groups of this warp are still running.
template <int n>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(n) : "memory");
}
// The compiler does not know that wgmma writes the accumulators asynchronously: this empty asm "redefines" each one
// after wgmma_wait, so no read of an accumulator can be scheduled before the wait.
template <int n>
__device__ __forceinline__ void fence_acc(float (&d)[n]) {
#pragma unroll
  for (int i = 0; i < n; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// ---- D (64 x N, f32) (+)= A (64 x 16, from shared memory, K-major) * B (16 x N, from shared memory, N-major).
// Operands after the descriptors: scale-d (predicate: 0 -> D = A B, ignoring D's old value), imm-scale-a = 1,
// imm-scale-b = 1, imm-trans-a = 0 (A is K-major: row-major M x K, as given), imm-trans-b = 1 (B is "transposed"
// relative to wgmma's default K-major B: our B is row-major K x N, N contiguous).
// Accumulator layout (PTX ISA, "Matrix Fragments for wgmma .m64nNk16"): warp w of the warpgroup owns rows 16 w ..
// 16 w + 15; with g = lane / 4 and t = lane % 4, register d[4 j + e] holds row 16 w + g + 8 (e / 2), column
// 8 j + 2 t + (e % 2): the m16n8 mma.sync accumulator layout, repeated over the N / 8 column blocks.
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

template <int BN>
__device__ __forceinline__ void wgmma_tile(float (&d)[BN / 2], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  if constexpr (BN == 256) wgmma_m64n256k16(d, desc_a, desc_b, scale_d);
  else if constexpr (BN == 128) wgmma_m64n128k16(d, desc_a, desc_b, scale_d);
  else wgmma_m64n64k16(d, desc_a, desc_b, scale_d);
}
#endif  // __CUDA_ARCH_FEAT_SM90_ALL

// Shared memory of one stage (all offsets multiples of 1024):
//   [0, 16 KB)       A tile: rows m = 0..127 of the tile, 128 bytes each (k = 0..63), 128B-swizzled. K-major.
//   [16 KB, +8 KB)   B box j (j = 0 .. BN/64 - 1): rows k = 0..63, 128 bytes each (n = 64 j .. 64 j + 63),
//                    128B-swizzled. N-major ("MN-major" in the PTX ISA).
//
// Descriptor of A for consumer warpgroup wg (tile rows 64 wg .. 64 wg + 63) and k16 step kk (k = 16 kk .. + 15):
//   K-major 128B-swizzle canonical layout ((8, m), (8, 2)) : ((128 B, SBO), (2 B, 16 B)): 8 rows 128 bytes apart form
//   one 1024-byte swizzle atom, consecutive 8-row groups are SBO = 1024 bytes apart, and the 16 k of one wgmma are
//   32 contiguous (pre-swizzle) bytes inside the row. LBO is unused for swizzled K-major layouts ("assumed 1": we
//   put 16 bytes). Start address = A tile + wg * 64 rows * 128 B + kk * 32 B: the k offset is added to the start
//   address, below bit 7, so the hardware's XOR (which uses the row bits 7-9 of the final address) still matches
//   what TMA wrote, and the base offset stays 0.
// Descriptor of B for k16 step kk:
//   MN-major 128B-swizzle canonical layout ((8 n, 8 chunks, m), (8 k, k groups)) : ((2 B, 16 B, LBO), (128 B, SBO)):
//   64 consecutive n are one 128-byte row, the 8 k rows of a swizzle atom are 128 bytes apart, the next 8 k rows
//   SBO = 1024 bytes further, and the next 64 columns of n (the next TMA box) LBO = 8192 bytes further (PTX ISA:
//   for MN-major swizzled layouts LBO is the offset between repeats of the swizzle span along MN, SBO between groups
//   of 8 along K). Start address = B tile + kk * 16 rows * 128 B = + 2048 kk (a multiple of 1024: base offset 0).

// Persistent, warp-specialised kernel. Warps 0-7: two consumer warpgroups, each 64 rows x BN columns of the tile.
// Warp 8: producer. full[s]: completed by the TMA bytes of stage s (1 arrival: the producer's expect_tx).
// empty[s]: completed when the 8 consumer warps have finished reading stage s (8 arrivals).
// Stage use number u (counted over all tiles of this block) goes to stage u % STAGES in round u / STAGES: consumers
// wait on full with parity (round & 1), the producer waits on empty with parity (round & 1) ^ 1 (round 0 passes at
// once: the ring starts empty).
template <int BN>
__global__ void __launch_bounds__(THREADS, 1)
    gemm_wgmma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, half* C, int M,
               int N, int K, float alpha, float beta) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using T = Cfg<BN>;
  constexpr int STAGES = T::STAGES;
  __shared__ __align__(8) uint64_t full_bar[STAGES];
  __shared__ __align__(8) uint64_t empty_bar[STAGES];
  extern __shared__ __align__(128) uint8_t smem_raw[];
  const uint32_t ring = (smem_u32(smem_raw) + 1023u) & ~1023u;  // 1024-aligned start of stage 0

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  const int num_tiles = tiles_m * tiles_n;
  const int ktiles = (K + BK - 1) / BK;  // K >= 16: at least one; the last one is zero-filled past K by TMA

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(smem_u32(&full_bar[s]), 1);
      mbar_init(smem_u32(&empty_bar[s]), CONSUMERS * 4);
    }
    // Make the initialised barriers visible to the async proxy (the TMA unit) as well as to the other threads.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();  // the last block-wide barrier: from here on producer and consumers only meet at mbarriers

  if (warp == CONSUMERS * 4) {
    // ---------------- producer warp: one lane issues every copy ----------------
    if (lane == 0) {
      prefetch_tensormap(&tmA);
      prefetch_tensormap(&tmB);
      uint32_t use = 0;
      for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
        int tm, tn;
        tile_coords(t, tiles_m, tiles_n, tm, tn);
        for (int kt = 0; kt < ktiles; ++kt, ++use) {
          const uint32_t s = use % STAGES, round = use / STAGES;
          mbar_wait(smem_u32(&empty_bar[s]), (round & 1) ^ 1);  // the consumers are done with this stage
          const uint32_t full = smem_u32(&full_bar[s]);
          const uint32_t a_dst = ring + s * T::STAGE_BYTES, b_dst = a_dst + A_BYTES;
          mbar_arrive_expect_tx(full, T::STAGE_BYTES);  // A box + BN / 64 B boxes, always full size (zero fill)
          tma_load_2d(a_dst, &tmA, full, kt * BK, tm * BM);  // A: box {64 k, 128 m} at (k, m)
#pragma unroll
          for (int j = 0; j < BN / B_BOX; ++j)  // B: box {64 n, 64 k} at (n, k)
            tma_load_2d(b_dst + j * B_BOX_BYTES, &tmB, full, tn * BN + j * B_BOX, kt * BK);
        }
      }
    }
    return;
  }

  // ---------------- consumer warpgroups ----------------
  const int wg = warp / 4;  // rows 64 wg .. 64 wg + 63 of the tile
  const int wl = warp % 4;  // rows 16 wl .. 16 wl + 15 of the warpgroup's 64
  float acc[T::ACC];
  uint32_t use = 0;
  for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
    int tm, tn;
    tile_coords(t, tiles_m, tiles_n, tm, tn);
    uint32_t prev = 0;  // stage of the previous k-tile, released once its wgmma group has completed
    for (int kt = 0; kt < ktiles; ++kt, ++use) {
      const uint32_t s = use % STAGES, round = use / STAGES;
      mbar_wait(smem_u32(&full_bar[s]), round & 1);  // TMA has landed this stage
      __syncwarp();  // the .sync.aligned wgmma instructions below need the whole warp converged
      const uint32_t a_base = ring + s * T::STAGE_BYTES + wg * (64 * 128);
      const uint32_t b_base = ring + s * T::STAGE_BYTES + A_BYTES;
      wgmma_fence();  // order earlier register accesses of acc before the asynchronous wgmma
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk) {
        const uint64_t da = smem_desc(a_base + kk * 32, 16, 1024);
        const uint64_t db = smem_desc(b_base + kk * 2048, B_BOX_BYTES, 1024);
        wgmma_tile<BN>(acc, da, db, (kt > 0 || kk > 0) ? 1 : 0);  // the tile's first product overwrites acc
      }
      wgmma_commit();
      // Keep this k-tile's group running; wait for the previous one, whose stage can then be refilled.
      wgmma_wait<1>();
      if (kt > 0 && lane == 0) mbar_arrive(smem_u32(&empty_bar[prev]));
      prev = s;
      __syncwarp();
    }
    wgmma_wait<0>();
    fence_acc(acc);
    if (lane == 0) mbar_arrive(smem_u32(&empty_bar[prev]));

    // Epilogue from the registers (the producer is meanwhile filling the ring for this block's next tile).
    // N % 8 == 0 on this path: a column c = 8 j + 2 t is even, so c < N implies c + 1 < N, and r N + c is even, so
    // the half2 access is 4-byte aligned. C is read only where beta != 0, as the reference does.
    const int r0 = tm * BM + wg * 64 + wl * 16 + lane / 4;
    const int c0 = tn * BN + (lane % 4) * 2;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
      const int c = c0 + j * 8;
      if (c < N) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = r0 + h * 8;
          if (r < M) {
            half2* p = reinterpret_cast<half2*>(C + static_cast<size_t>(r) * N + c);
            const float s0 = acc[4 * j + 2 * h], s1 = acc[4 * j + 2 * h + 1];
            float2 old = make_float2(0.0f, 0.0f);
            if (beta != 0.0f) old = __half22float2(*p);
            *p = __floats2half2_rn(alpha * s0 + beta * old.x, alpha * s1 + beta * old.y);
          }
        }
      }
    }
  }
#endif  // __CUDA_ARCH_FEAT_SM90_ALL
}

// Writes 1 when this file's device code was compiled with the sm_90a features (wgmma, setmaxnreg...), else 0.
__global__ void probe_kernel(int* flag) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  *flag = 1;
#else
  *flag = 0;
#endif
}
__device__ int g_probe_flag;

// Once per process: is the wgmma kernel real (compiled for sm_90a and running on a 9.x device)?
bool wgmma_available() {
  static int state = -1;
  if (state < 0) {
    state = 0;
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major == 9) {
      int* flag = nullptr;
      int value = 0;
      if (cudaGetSymbolAddress(reinterpret_cast<void**>(&flag), g_probe_flag) == cudaSuccess &&
          cudaMemcpyToSymbol(g_probe_flag, &value, sizeof(int)) == cudaSuccess) {
        probe_kernel<<<1, 1>>>(flag);
        if (cudaMemcpyFromSymbol(&value, g_probe_flag, sizeof(int)) == cudaSuccess && value == 1) state = 1;
      }
    }
    cudaGetLastError();  // leave no error behind from a failed probe
  }
  return state == 1;
}

PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  static bool tried = false;
  if (!tried) {
    tried = true;
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess && p != nullptr)
      fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    cudaGetLastError();
  }
  return fn;
}

// Row-major rows x cols half matrix, box of box_rows x box_cols (box_cols * 2 = 128 bytes), 128-byte swizzle, zero
// fill outside. Needs cols % 8 == 0 (the row stride, cols * 2 bytes, must be a multiple of 16).
bool make_map(CUtensorMap* map, const half* base, int rows, int cols, int box_rows, int box_cols) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};  // innermost first
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * sizeof(half)};               // bytes, dim 1
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode_fn()(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<half*>(base), dims, strides, box,
                     elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

template <int BN>
bool launch(const CUtensorMap& ta, const CUtensorMap& tb, half* C, int M, int N, int K, float alpha, float beta,
            int sms) {
  const int tiles = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
  const int grid = tiles < sms ? tiles : sms;
  if (cudaFuncSetAttribute(gemm_wgmma<BN>, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg<BN>::SMEM) !=
      cudaSuccess)
    return false;
  gemm_wgmma<BN><<<grid, THREADS, Cfg<BN>::SMEM>>>(ta, tb, C, M, N, K, alpha, beta);
  return cudaGetLastError() == cudaSuccess;
}

// Tile width: the one with the least estimated time = waves * BN / efficiency, where a wave is one tile per SM and
// narrower wgmma (n128, n64) reuse each A tile for fewer columns (assumed 90% and 70% of the n256 rate). 4096^3: 512
// tiles of 256 (4 waves) beat 1024 of 128 (8); 1024^3: 32 tiles of 256 leave 100 SMs idle, 128 tiles of 64 do not.
int choose_bn(int M, int N, int sms) {
  const int tiles_m = (M + BM - 1) / BM;
  const int widths[3] = {256, 128, 64};
  const float eff[3] = {1.0f, 0.9f, 0.7f};
  int best = 256;
  float best_cost = 0.0f;
  for (int i = 0; i < 3; ++i) {
    const int tiles = tiles_m * ((N + widths[i] - 1) / widths[i]);
    const int waves = (tiles + sms - 1) / sms;
    const float cost = waves * widths[i] / eff[i];
    if (i == 0 || cost < best_cost) best = widths[i], best_cost = cost;
  }
  return best;
}

bool run(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  if (K % 8 != 0 || N % 8 != 0) return false;  // TMA: global row strides must be multiples of 16 bytes
  if (!wgmma_available() || encode_fn() == nullptr) return false;
  CUtensorMap ta, tb;  // 64-byte aligned by their type
  if (!make_map(&ta, A, M, K, BM, BK) || !make_map(&tb, B, K, N, BK, B_BOX)) return false;
  int dev = 0, sms = 132;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) !=
                                                cudaSuccess)
    sms = 132;
  switch (choose_bn(M, N, sms)) {
    case 256: return launch<256>(ta, tb, C, M, N, K, alpha, beta, sms);
    case 128: return launch<128>(ta, tb, C, M, N, K, alpha, beta, sms);
    default: return launch<64>(ta, tb, C, M, N, K, alpha, beta, sms);
  }
}

}  // namespace hopper

// A is M x K, B is K x N, C is M x N, all row-major device pointers.
extern "C" void solve(const half* A, const half* B, half* C, int M, int N, int K, float alpha, float beta) {
  if (!hopper::run(A, B, C, M, N, K, alpha, beta)) ampere::run(A, B, C, M, N, K, alpha, beta);
  cudaDeviceSynchronize();
}
