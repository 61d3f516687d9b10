// expect: wrong_answer
// expect-message: elements wrong
// A shared-memory histogram per block, cleared correctly, but flushed to global memory with one thread per bin:
// `if (threadIdx.x < num_bins)`. With 256 threads per block, bins 256 and up are counted in shared memory and then
// dropped, so they stay 0. Every test with at most 256 bins passes; sparse_100_of_1024 (and bins_257, bins_1024)
// expose it.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_shared(const int* input, int* histogram, int N, int num_bins) {
  extern __shared__ int bins[];
  for (int b = threadIdx.x; b < num_bins; b += THREADS) bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += gridDim.x * THREADS) atomicAdd(&bins[input[i]], 1);
  __syncthreads();
  if (threadIdx.x < num_bins) atomicAdd(&histogram[threadIdx.x], bins[threadIdx.x]);  // the mistake
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemset(histogram, 0, num_bins * sizeof(int));
  int blocks = (N + THREADS - 1) / THREADS;
  if (blocks > 1024) blocks = 1024;
  histogram_shared<<<blocks, THREADS, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
  cudaDeviceSynchronize();
}
