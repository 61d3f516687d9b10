// Rung 1: one thread per value, which adds 1 to its bin in global memory with atomicAdd: many threads hit the same
// bin at the same time, and only an atomic read-modify-write keeps every count (a plain ++ loses them). The histogram
// is set to zero first: its contents on entry are garbage, and bins that no value falls into must read 0.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_global(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemset(histogram, 0, num_bins * sizeof(int));
  histogram_global<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, histogram, N);
  cudaDeviceSynchronize();
}
