// Rung 5: bank-conflict-free shared memory: A's rows padded to 132 floats, B's columns dealt in float4s.
// Shared memory has 32 banks, each 4 bytes wide; word w (a float at float offset w) lives in bank w % 32. One request
// of a warp is served in as many passes ("wavefronts") as the most distinct words any single bank must deliver
// (threads reading the same word share it); a 16-byte read by 32 threads needs at least (distinct bytes) / 128 passes.
// Rung 4 lost passes in two places, both fixed here without changing anything else:
// - The transposed stores of A. Thread t stores its float4 of A (row a_r = t / 2, columns a_c = 0 or 4) to
//   As[a_c + i][a_r]. With rows of 128 floats, word (a_c + i) * 128 + a_r is in bank a_r % 32 for both values of a_c:
//   threads 2j and 2j+1 hit one bank with two different words, a 2-way conflict on all four stores. Padding each row
//   to BM + 4 = 132 floats puts word (a_c + i) * 132 + a_r in bank (4 * (a_c + i) + a_r) % 32: the 16 threads with
//   a_c = 0 cover 16 consecutive banks and the 16 with a_c = 4 the other 16 (4 * 4 = 16 banks further on). The pad
//   keeps every row 16-byte aligned (132 * 4 bytes = 33 * 16), so the float4 reads below still work.
// - The float4 reads of B. In rung 4 thread t's 8 columns were 8 consecutive ones, tcol = (t % 16) * 8: the 16
//   different float4 a warp reads sit 8 floats apart, all in the 16 banks 0-3, 8-11, 16-19, 24-27, four words each:
//   4 passes where 2 would do. Now thread t takes columns tcol..tcol+3 and tcol+64..tcol+67 with tcol = (t % 16) * 4:
//   each read is 16 consecutive float4 = 64 consecutive words, two per bank, 2 passes. (A's float4 reads were
//   already fine: a warp reads only 2 distinct float4, 8 floats apart.)
#include <cuda_runtime.h>

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // depth of one A/B tile
#define TM 8    // rows of C per thread
#define TN 8    // columns of C per thread: two groups of 4, BN / 2 apart
#define PAD 4   // floats of padding at the end of each row of As
#define THREADS ((BM / TM) * (BN / TN))  // 256

// Elements (r, c), ..., (r, c + 3) of a rows x cols row-major matrix X, zero where outside the matrix. c is a
// multiple of 4. VEC: cols % 4 == 0, so the four are all inside the row or all outside it, and (r, c) is 16-byte
// aligned (the buffers are, and every row starts at a multiple of 4 floats).
template <bool VEC>
__device__ __forceinline__ float4 load4(const float* X, int r, int c, int rows, int cols) {
  if constexpr (VEC) {
    if (r < rows && c < cols) return *reinterpret_cast<const float4*>(X + r * cols + c);
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  } else {
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = (r < rows && c + i < cols) ? X[r * cols + c + i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
  }
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
    matmul_conflict_free(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM + PAD];  // transposed (As[k][m]) and padded: see the header
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM;         // first row of C for this block
  const int col0 = blockIdx.x * BN;         // first column of C for this block
  const int trow = (tid / (BN / TN)) * TM;  // first of this thread's 8 rows (consecutive), within the block tile
  const int tcol = (tid % (BN / TN)) * 4;   // its columns: tcol..tcol+3 and tcol+BN/2..tcol+BN/2+3
  // The A tile (BM x BK = 128 x 8) is 256 float4, one per thread: row a_r, columns a_c..a_c+3. The B tile
  // (BK x BN = 8 x 128) likewise: row b_r, columns b_c..b_c+3. Consecutive threads read consecutive float4 of a row.
  const int a_r = tid / (BK / 4), a_c = (tid % (BK / 4)) * 4;
  const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;

  float acc[TM][TN] = {};

  for (int k0 = 0; k0 < N; k0 += BK) {
    // Out-of-range elements are loaded as zero, so partial tiles need no special case in the inner loop.
    const float4 a = load4<VEC>(A, row0 + a_r, k0 + a_c, M, N);
    const float4 b = load4<VEC>(B, k0 + b_r, col0 + b_c, N, K);
    As[a_c + 0][a_r] = a.x;  // the transpose: four 4-byte stores
    As[a_c + 1][a_r] = a.y;
    As[a_c + 2][a_r] = a.z;
    As[a_c + 3][a_r] = a.w;
    *reinterpret_cast<float4*>(&Bs[b_r][b_c]) = b;  // one 16-byte store
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[k][trow]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[k][trow + 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tcol]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][tcol + BN / 2]);
      const float av[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + trow + i;
    if (r >= M) break;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int c = col0 + tcol + (j / 4) * (BN / 2);  // acc[i][0..3] are columns tcol.., acc[i][4..7] tcol+BN/2..
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
    matmul_conflict_free<true><<<blocks, THREADS>>>(A, B, C, M, N, K);
  else
    matmul_conflict_free<false><<<blocks, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
