// Rung 1: sort everything, keep the first k. The input is copied into a buffer of the next power of two (at least
// one 2048-element tile), padded with -infinity so the padding sorts to the end, sorted DESCENDING by a bitonic
// network (stages inside a 2048-element tile run in shared memory, larger ones one launch each in global memory), and
// the first k values are copied to the output. Correct for every k, ties included, but it sorts all N values to
// keep k of them.
#include <cuda_runtime.h>

#include <math.h>

#define TILE 2048
#define TILE_THREADS (TILE / 2)
#define THREADS 256

__global__ void pad_copy(const float* in, float* buf, int n, int p) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < p) buf[i] = i < n ? in[i] : -INFINITY;
}

// The pair (i, i + j) of thread t; descending where bit k of the global index is clear (the final order).
__device__ void compare_exchange(float* s, int base, int t, int j, int k) {
  const int i = 2 * j * (t / j) + t % j;
  const float a = s[i], b = s[i + j];
  const bool descending = ((base + i) & k) == 0;
  if ((a < b) == descending) {
    s[i] = b;
    s[i + j] = a;
  }
}

// All stages with k <= TILE (kmax == 0), or stages j = TILE/2 .. 1 of one larger k, inside each tile.
__global__ void tile_stages(float* buf, int kmax) {
  __shared__ float s[TILE];
  const int base = blockIdx.x * TILE;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + TILE_THREADS] = buf[base + threadIdx.x + TILE_THREADS];
  __syncthreads();
  if (kmax == 0) {
    for (int k = 2; k <= TILE; k *= 2)
      for (int j = k / 2; j > 0; j /= 2) {
        compare_exchange(s, base, threadIdx.x, j, k);
        __syncthreads();
      }
  } else {
    for (int j = TILE / 2; j > 0; j /= 2) {
      compare_exchange(s, base, threadIdx.x, j, kmax);
      __syncthreads();
    }
  }
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + TILE_THREADS] = s[threadIdx.x + TILE_THREADS];
}

__global__ void global_stage(float* buf, int p, int j, int k) {
  const int t = blockIdx.x * THREADS + threadIdx.x;
  if (t < p / 2) compare_exchange(buf, 0, t, j, k);
}

// input and output point to GPU memory; output has room for k floats.
extern "C" void solve(const float* input, float* output, int N, int k) {
  int p = TILE;
  while (p < N) p *= 2;
  float* buf = nullptr;
  cudaMalloc(&buf, (size_t)p * sizeof(float));
  pad_copy<<<(p + THREADS - 1) / THREADS, THREADS>>>(input, buf, N, p);
  const int tiles = p / TILE;
  tile_stages<<<tiles, TILE_THREADS>>>(buf, 0);
  for (int kk = 2 * TILE; kk <= p; kk *= 2) {
    for (int j = kk / 2; j >= TILE; j /= 2) global_stage<<<(p / 2 + THREADS - 1) / THREADS, THREADS>>>(buf, p, j, kk);
    tile_stages<<<tiles, TILE_THREADS>>>(buf, kk);
  }
  cudaMemcpy(output, buf, (size_t)k * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(buf);
}
