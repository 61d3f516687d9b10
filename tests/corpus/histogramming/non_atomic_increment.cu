// expect: wrong_answer
// expect-message: elements wrong
// Increments the bin with a plain `histogram[v]++`: a load, an add and a store, not one indivisible step. Threads
// that hit the same bin at the same time all load the same old count and all store old + 1, so all but one of their
// increments are lost. Already in example_6 the three 2s of one warp are counted once.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void histogram_racy(const int* input, int* histogram, int N) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < N) histogram[input[i]]++;  // the mistake: not atomic
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  cudaMemset(histogram, 0, num_bins * sizeof(int));
  histogram_racy<<<(N + THREADS - 1) / THREADS, THREADS>>>(input, histogram, N);
  cudaDeviceSynchronize();
}
