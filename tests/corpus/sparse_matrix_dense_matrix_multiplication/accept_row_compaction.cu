// expect: accepted
// A sparse-aware kernel that takes the sparsity seriously: one block per row of A, which it walks in chunks of 256
// elements, compacting each chunk's non-zeros (values and column indices) into shared memory with warp ballots and a
// prefix over the block's warps; then every thread updates its columns of the row of C with only those non-zeros.
// The row of C is zeroed first and updated chunk by chunk, so empty rows come out as zeros and rows of any length
// (up to N = 8192, 32 chunks) work. A different summation order from a dense product, within the tolerance.
#include <cuda_runtime.h>

constexpr int THREADS = 256, WARPS = THREADS / 32;

__global__ void __launch_bounds__(THREADS) spmm_rows(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float vals[THREADS];
  __shared__ int cols[THREADS];
  __shared__ int warp_base[WARPS + 1];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  for (int i = blockIdx.x; i < M; i += gridDim.x) {
    const float* row = A + (size_t)i * N;
    float* c = C + (size_t)i * K;
    for (int j = t; j < K; j += THREADS) c[j] = 0.0f;
    for (int n0 = 0; n0 < N; n0 += THREADS) {
      const int n = n0 + t;
      const float a = n < N ? row[n] : 0.0f;
      const unsigned mask = __ballot_sync(0xffffffffu, a != 0.0f);
      if (lane == 0) warp_base[warp + 1] = __popc(mask);
      __syncthreads();
      if (t == 0) {
        warp_base[0] = 0;
        for (int w = 1; w <= WARPS; ++w) warp_base[w] += warp_base[w - 1];
      }
      __syncthreads();
      if (a != 0.0f) {
        const int pos = warp_base[warp] + __popc(mask & ((1u << lane) - 1u));
        vals[pos] = a;
        cols[pos] = n;
      }
      __syncthreads();
      const int count = warp_base[WARPS];
      if (count > 0)
        for (int j = t; j < K; j += THREADS) {
          float s = c[j];  // only this thread touches column j of this row
          for (int e = 0; e < count; ++e) s += vals[e] * B[(size_t)cols[e] * K + j];
          c[j] = s;
        }
      __syncthreads();  // vals, cols and warp_base are rewritten by the next chunk
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K, int nnz) {
  spmm_rows<<<M < 65535 ? M : 65535, THREADS>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
