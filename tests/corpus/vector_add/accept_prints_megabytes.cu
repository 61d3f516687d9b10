// expect: accepted
// Correct, and floods stdout and stderr with about 4 MB of text per call (think of debug output left in). The
// worker's output goes through a pipe that the judge keeps draining, so the worker never blocks on it, and only the
// first 64 KiB are kept in the report (the rest is counted): printing is never a reason to fail or to hang.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  for (int line = 0; line < 32768; ++line)
    std::printf("debug: N = %d, line %5d, all is well, nothing to see here, carry on.........\n", N, line);
  for (int line = 0; line < 16384; ++line)
    std::fprintf(stderr, "debug(stderr): line %5d of the same, once more, for good measure......\n", line);
  std::fflush(stdout);
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
