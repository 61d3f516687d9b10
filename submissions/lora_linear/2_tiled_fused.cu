// Rung 2: the base product x W^T, which is nearly all the work, becomes a shared-memory tiled GEMM: each block of
// 16 x 16 threads computes a 64 x 64 tile of output, 4 x 4 elements per thread, staging 16-wide k-slices of x and W
// in shared memory so each value loaded from global memory is used 64 times instead of once. The hidden h = x A^T is
// one warp per element (a shuffle reduction over d_in), and the adapter term is added in the GEMM's epilogue.
#include <cuda_runtime.h>

constexpr int TILE = 64, KT = 16, THREADS = 16, PER = TILE / THREADS;

__global__ void hidden_kernel(const float* x, const float* A, float* h, int batch, int d_in, int rank) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= (long long)batch * rank) return;
  const int i = warp / rank, r = warp % rank;
  float acc = 0.0f;
  for (int k = lane; k < d_in; k += 32) acc += x[(size_t)i * d_in + k] * A[(size_t)r * d_in + k];
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) h[(size_t)i * rank + r] = acc;
}

__global__ void __launch_bounds__(THREADS * THREADS)
lora_gemm_kernel(const float* x, const float* W, const float* B, const float* h, float* output, int batch, int d_in,
                 int d_out, int rank, float lora_scale) {
  // k-major tiles, padded by one column so the transposing stores do not all hit one bank.
  __shared__ float xs[KT][TILE + 1];
  __shared__ float ws[KT][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * THREADS + tx;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float acc[PER][PER] = {};
  for (int k0 = 0; k0 < d_in; k0 += KT) {
    // 64 rows x 16 k of each operand: 1024 values, 4 per thread; 16 neighbouring threads read 16 consecutive k.
    for (int l = 0; l < TILE * KT / (THREADS * THREADS); ++l) {
      const int idx = t + l * THREADS * THREADS, rr = idx / KT, kk = idx % KT, gk = k0 + kk;
      const int gi = row0 + rr, gj = col0 + rr;
      xs[kk][rr] = (gi < batch && gk < d_in) ? x[(size_t)gi * d_in + gk] : 0.0f;  // zero-fill partial tiles
      ws[kk][rr] = (gj < d_out && gk < d_in) ? W[(size_t)gj * d_in + gk] : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < KT; ++kk) {
      float a[PER], b[PER];
      for (int p = 0; p < PER; ++p) a[p] = xs[kk][ty + THREADS * p];  // rows ty, ty+16, ...: strided, conflict-free
      for (int q = 0; q < PER; ++q) b[q] = ws[kk][tx + THREADS * q];
      for (int p = 0; p < PER; ++p)
        for (int q = 0; q < PER; ++q) acc[p][q] += a[p] * b[q];
    }
    __syncthreads();
  }
  for (int p = 0; p < PER; ++p) {
    const int i = row0 + ty + THREADS * p;
    if (i >= batch) continue;
    for (int q = 0; q < PER; ++q) {
      const int j = col0 + tx + THREADS * q;
      if (j >= d_out) continue;
      float delta = 0.0f;  // h and B are small and stay in L2
      for (int r = 0; r < rank; ++r) delta += h[(size_t)i * rank + r] * B[(size_t)j * rank + r];
      output[(size_t)i * d_out + j] = acc[p][q] + lora_scale * delta;
    }
  }
}

// x, W, A, B, output are device pointers
extern "C" void solve(const float* x, const float* W, const float* A, const float* B, float* output,
                      int batch, int d_in, int d_out, int rank, float lora_scale) {
  static float* h = nullptr;
  static size_t capacity = 0;
  const size_t need = (size_t)batch * rank;
  if (need > capacity) {
    cudaFree(h);
    cudaMalloc(&h, need * sizeof(float));
    capacity = need;
  }
  const long long hidden_threads = (long long)batch * rank * 32;
  hidden_kernel<<<(unsigned)((hidden_threads + 255) / 256), 256>>>(x, A, h, batch, d_in, rank);
  const dim3 grid((d_out + TILE - 1) / TILE, (batch + TILE - 1) / TILE);
  lora_gemm_kernel<<<grid, dim3(THREADS, THREADS)>>>(x, W, B, h, output, batch, d_in, d_out, rank, lora_scale);
  cudaDeviceSynchronize();
}
