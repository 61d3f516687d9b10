// expect: wrong_answer
// A bitonic network written for powers of two and run on N elements as they are: the stages go up to the next power
// of two, but compare-exchanges whose partner lies past the end are simply skipped instead of padding the data with
// +infinity. In the descending runs a missing partner should have pulled its element towards the end; skipping it
// leaves elements out of place. Powers of two (and N = 1) still come out sorted; n1000 and every other size that is
// not a power of two does not.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void bitonic_stage(float* data, int n, int j, int k) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const int partner = i ^ j;
  if (i >= n || partner <= i || partner >= n) return;  // BUG: out-of-range partners are skipped, not padded
  const float a = data[i], b = data[partner];
  const bool ascending = (i & k) == 0;
  if ((a > b) == ascending) {
    data[i] = b;
    data[partner] = a;
  }
}

extern "C" void solve(float* data, int N) {
  int p = 1;
  while (p < N) p *= 2;
  const int blocks = (N + THREADS - 1) / THREADS;
  for (int k = 2; k <= p; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) bitonic_stage<<<blocks, THREADS>>>(data, N, j, k);
  cudaDeviceSynchronize();
}
