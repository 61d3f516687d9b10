// Rung 3: each thread computes 8 neighbouring outputs. In rung 2 every FMA needed two shared-memory loads (an input
// and a weight); here a thread slides a window of 8 + 8 inputs through registers: per 8 weights it loads 8 new
// inputs and 8 weights (broadcast) and does 64 FMAs, so the loop is limited by arithmetic rather than by
// shared-memory loads. The kernel is zero-padded in shared memory to a multiple of 8, so the unrolled inner loops
// need no bounds checks. Threads of a warp read inputs 8 floats apart: the tile is laid out with one padding float
// after every 32, so those reads fall in different banks.
#include <cuda_runtime.h>

#define THREADS 128
#define R 8                   // outputs per thread
#define TILE (THREADS * R)    // outputs per block
#define MAX_KERNEL 2047
#define MAX_PAD ((MAX_KERNEL + R - 1) / R * R)

__device__ __forceinline__ int skew(int i) { return i + i / 32; }  // one padding float after every 32

__global__ void __launch_bounds__(THREADS) correlate(const float* __restrict__ input, const float* __restrict__ kernel,
                                                     float* __restrict__ output, int input_size, int output_size,
                                                     int kernel_size) {
  __shared__ float w[MAX_PAD];
  __shared__ float x[(TILE + MAX_PAD) + (TILE + MAX_PAD) / 32 + 1];  // skew(TILE + MAX_PAD) + 1
  const int k_pad = (kernel_size + R - 1) / R * R;
  const long long base = (long long)blockIdx.x * TILE;
  for (int i = threadIdx.x; i < k_pad; i += THREADS) w[i] = i < kernel_size ? kernel[i] : 0.0f;
  for (int i = threadIdx.x; i < TILE + k_pad; i += THREADS)
    x[skew(i)] = base + i < input_size ? input[base + i] : 0.0f;
  __syncthreads();

  const int first = threadIdx.x * R;  // this thread's outputs: base + first + [0, R)
  float acc[R] = {}, win[2 * R];
#pragma unroll
  for (int r = 0; r < R; ++r) win[r] = x[skew(first + r)];
  for (int j0 = 0; j0 < k_pad; j0 += R) {
#pragma unroll
    for (int r = 0; r < R; ++r) win[R + r] = x[skew(first + j0 + R + r)];
#pragma unroll
    for (int jj = 0; jj < R; ++jj) {
      const float k = w[j0 + jj];
#pragma unroll
      for (int r = 0; r < R; ++r) acc[r] = fmaf(win[r + jj], k, acc[r]);
    }
#pragma unroll
    for (int r = 0; r < R; ++r) win[r] = win[R + r];
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (base + first + r < output_size) output[base + first + r] = acc[r];
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size + 1;
  correlate<<<(output_size + TILE - 1) / TILE, THREADS>>>(input, kernel, output, input_size, output_size, kernel_size);
  cudaDeviceSynchronize();
}
