// expect: accepted
// LeetGPU compatibility: adds 1 to each value's bin with atomicAdd and never clears the histogram, relying on the
// zeros LeetGPU's harness hands over. The spec says the output is preset to 0 ("init" on the output), so this
// LeetGPU-accepted solution is accepted here too; the statement recommends clearing it anyway.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_global(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  // missing: cudaMemset(histogram, 0, num_bins * sizeof(int));
  histogram_global<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, histogram, N);
  cudaDeviceSynchronize();
}
