// expect: wrong_answer
// expect-message: elements wrong
// Solves the classic maximum subarray problem (Kadane's algorithm: the best sum over subarrays of any length) and
// ignores window_size. n1_w1 passes (-7 either way); example_5 gives 12 (the whole array) instead of 6, and
// example_negative_4 gives 1 instead of -5.
#include <climits>

#include <cuda_runtime.h>

__global__ void kadane(const int* input, int* output, int N) {
  int best = INT_MIN, run = 0;
  for (int i = 0; i < N; ++i) {
    run = max(input[i], run + input[i]);  // best sum of a subarray ending at i
    best = max(best, run);
  }
  *output = best;
}

// input, output are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const int* input, int* output, int N, int window_size) {
  kadane<<<1, 1>>>(input, output, N);
  cudaDeviceSynchronize();
}
