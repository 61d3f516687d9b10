// Rung 2: both products become shared-memory tiled GEMMs, and the gate and up projections share one kernel. Each
// block of 16 x 16 threads computes a 64 x 64 tile of gate and the same tile of up (4 x 4 elements of each per
// thread), staging 16-wide k-slices of x, W_gate and W_up in shared memory so each loaded value is used 64 times;
// the x slice is loaded once for both. The SwiGLU is the epilogue of that kernel, so gate and up never reach global
// memory: only the hidden matrix does, and a second tiled GEMM multiplies it by W_down.
#include <cuda_runtime.h>

constexpr int TILE = 64, KT = 16, THREADS = 16, PER = TILE / THREADS;

// Loads rows [row0, row0 + 64) x columns [k0, k0 + 16) of the row-major R x K matrix a, transposed, into s[k][row].
__device__ __forceinline__ void load_a(float (*s)[TILE + 1], const float* a, int R, int K, int row0, int k0, int t) {
  for (int l = 0; l < TILE * KT / (THREADS * THREADS); ++l) {
    const int idx = t + l * THREADS * THREADS, rr = idx / KT, kk = idx % KT, gr = row0 + rr, gk = k0 + kk;
    s[kk][rr] = (gr < R && gk < K) ? a[(size_t)gr * K + gk] : 0.0f;  // zero-fill partial tiles
  }
}

// Loads rows [k0, k0 + 16) x columns [col0, col0 + 64) of the row-major K x C matrix b into s[k][col].
__device__ __forceinline__ void load_b(float (*s)[TILE], const float* b, int K, int C, int k0, int col0, int t) {
  for (int l = 0; l < TILE * KT / (THREADS * THREADS); ++l) {
    const int idx = t + l * THREADS * THREADS, kk = idx / TILE, cc = idx % TILE, gk = k0 + kk, gc = col0 + cc;
    s[kk][cc] = (gk < K && gc < C) ? b[(size_t)gk * C + gc] : 0.0f;
  }
}

__global__ void __launch_bounds__(THREADS * THREADS)
gate_up_kernel(const float* x, const float* W_gate, const float* W_up, float* hidden, int M, int d_model, int d_ffn) {
  __shared__ float xs[KT][TILE + 1];
  __shared__ float gs[KT][TILE];
  __shared__ float us[KT][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * THREADS + tx;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float g[PER][PER] = {}, u[PER][PER] = {};
  for (int k0 = 0; k0 < d_model; k0 += KT) {
    load_a(xs, x, M, d_model, row0, k0, t);
    load_b(gs, W_gate, d_model, d_ffn, k0, col0, t);
    load_b(us, W_up, d_model, d_ffn, k0, col0, t);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk) {
      float a[PER], bg[PER], bu[PER];
#pragma unroll
      for (int p = 0; p < PER; ++p) a[p] = xs[kk][ty + THREADS * p];
#pragma unroll
      for (int q = 0; q < PER; ++q) bg[q] = gs[kk][tx + THREADS * q], bu[q] = us[kk][tx + THREADS * q];
#pragma unroll
      for (int p = 0; p < PER; ++p)
#pragma unroll
        for (int q = 0; q < PER; ++q) g[p][q] += a[p] * bg[q], u[p][q] += a[p] * bu[q];
    }
    __syncthreads();
  }
  for (int p = 0; p < PER; ++p) {
    const int i = row0 + ty + THREADS * p;
    if (i >= M) continue;
    for (int q = 0; q < PER; ++q) {
      const int f = col0 + tx + THREADS * q;
      if (f < d_ffn) hidden[(size_t)i * d_ffn + f] = g[p][q] / (1.0f + expf(-g[p][q])) * u[p][q];
    }
  }
}

__global__ void __launch_bounds__(THREADS * THREADS)
down_kernel(const float* hidden, const float* W_down, float* output, int M, int d_model, int d_ffn) {
  __shared__ float hs[KT][TILE + 1];
  __shared__ float ws[KT][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * THREADS + tx;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float acc[PER][PER] = {};
  for (int k0 = 0; k0 < d_ffn; k0 += KT) {
    load_a(hs, hidden, M, d_ffn, row0, k0, t);
    load_b(ws, W_down, d_ffn, d_model, k0, col0, t);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk) {
      float a[PER], b[PER];
#pragma unroll
      for (int p = 0; p < PER; ++p) a[p] = hs[kk][ty + THREADS * p];
#pragma unroll
      for (int q = 0; q < PER; ++q) b[q] = ws[kk][tx + THREADS * q];
#pragma unroll
      for (int p = 0; p < PER; ++p)
#pragma unroll
        for (int q = 0; q < PER; ++q) acc[p][q] += a[p] * b[q];
    }
    __syncthreads();
  }
  for (int p = 0; p < PER; ++p) {
    const int i = row0 + ty + THREADS * p;
    if (i >= M) continue;
    for (int q = 0; q < PER; ++q) {
      const int j = col0 + tx + THREADS * q;
      if (j < d_model) output[(size_t)i * d_model + j] = acc[p][q];
    }
  }
}

extern "C" void solve(const float* x, const float* W_gate, const float* W_up, const float* W_down, float* output, int M,
                      int d_model, int d_ffn) {
  static float* hidden = nullptr;  // kept between calls, grown when a larger case comes
  static size_t capacity = 0;
  const size_t need = (size_t)M * d_ffn;
  if (need > capacity) {
    cudaFree(hidden);
    cudaMalloc(&hidden, need * sizeof(float));
    capacity = need;
  }
  const dim3 block(THREADS, THREADS);
  gate_up_kernel<<<dim3((d_ffn + TILE - 1) / TILE, (M + TILE - 1) / TILE), block>>>(x, W_gate, W_up, hidden, M,
                                                                                     d_model, d_ffn);
  down_kernel<<<dim3((d_model + TILE - 1) / TILE, (M + TILE - 1) / TILE), block>>>(hidden, W_down, output, M, d_model,
                                                                                  d_ffn);
  cudaDeviceSynchronize();
}
