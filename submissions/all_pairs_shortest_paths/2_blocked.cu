// Rung 2: blocked Floyd-Warshall on 32 x 32 tiles in shared memory: N / 32 rounds of three launches instead of N
// launches. Round r first closes the diagonal tile (r, r) over its own 32 vertices, then the tiles of row r and
// column r through it, then every other tile (a, b) through tiles (a, r) and (r, b), which are final by then. The
// last phase, nearly all the work, reads two tiles from shared memory for 32 relaxations per element loaded from
// global memory, so the matrix crosses memory N / 32 times instead of N times. Cells past N are +inf in shared
// memory, which relaxes nothing.
#include <cuda_runtime.h>

#define T 32

__device__ __forceinline__ float load(const float* d, int n, int r, int c) {
  return r < n && c < n ? d[(size_t)r * n + c] : __int_as_float(0x7f800000);  // +inf
}

__global__ void diagonal(float* d, int n, int r) {
  __shared__ float t[T][T];
  int ty = threadIdx.y, tx = threadIdx.x, b = r * T;
  t[ty][tx] = load(d, n, b + ty, b + tx);
  __syncthreads();
  for (int k = 0; k < T; ++k) {
    float v = t[ty][k] + t[k][tx];
    __syncthreads();
    if (v < t[ty][tx]) t[ty][tx] = v;
    __syncthreads();
  }
  if (b + ty < n && b + tx < n) d[(size_t)(b + ty) * n + b + tx] = t[ty][tx];
}

__global__ void cross(float* d, int n, int r) {
  int c = blockIdx.x;
  if (c == r) return;
  __shared__ float dg[T][T], t[T][T];
  int ty = threadIdx.y, tx = threadIdx.x;
  bool in_row = blockIdx.y == 0;  // tile (r, c); otherwise tile (c, r)
  int i = (in_row ? r : c) * T + ty, j = (in_row ? c : r) * T + tx;
  dg[ty][tx] = load(d, n, r * T + ty, r * T + tx);
  t[ty][tx] = load(d, n, i, j);
  __syncthreads();
  for (int k = 0; k < T; ++k) {
    float v = in_row ? dg[ty][k] + t[k][tx] : t[ty][k] + dg[k][tx];
    __syncthreads();
    if (v < t[ty][tx]) t[ty][tx] = v;
    __syncthreads();
  }
  if (i < n && j < n) d[(size_t)i * n + j] = t[ty][tx];
}

__global__ void rest(float* d, int n, int r) {
  int a = blockIdx.y, b = blockIdx.x;
  if (a == r || b == r) return;
  __shared__ float col[T][T], row[T][T];
  int ty = threadIdx.y, tx = threadIdx.x, i = a * T + ty, j = b * T + tx;
  col[ty][tx] = load(d, n, i, r * T + tx);
  row[ty][tx] = load(d, n, r * T + ty, j);
  __syncthreads();
  if (i >= n || j >= n) return;
  float best = d[(size_t)i * n + j];
#pragma unroll
  for (int k = 0; k < T; ++k) best = fminf(best, col[ty][k] + row[k][tx]);
  d[(size_t)i * n + j] = best;
}

// dist, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* dist, float* output, int N) {
  cudaMemcpy(output, dist, sizeof(float) * N * N, cudaMemcpyDeviceToDevice);
  int tiles = (N + T - 1) / T;
  dim3 threads(T, T);
  for (int r = 0; r < tiles; ++r) {
    diagonal<<<1, threads>>>(output, N, r);
    if (tiles == 1) break;
    cross<<<dim3(tiles, 2), threads>>>(output, N, r);
    rest<<<dim3(tiles, tiles), threads>>>(output, N, r);
  }
  cudaDeviceSynchronize();
}
