// expect: accepted
// Correct, but the first call forks a child that leaves the worker's process group (setsid) and lives on for 30 s
// holding the worker's stdout, stderr and message pipe. The judge must not wait for those pipes to close: it kills
// the group once the worker has exited, and gives a straggler outside the group a bounded grace period, then reports
// the (correct) result. The test's wall-clock limit catches a judge that waits for the daemon.
#include <cuda_runtime.h>

#include <unistd.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool forked = false;
  if (!forked) {
    forked = true;
    if (fork() == 0) {
      // Only async-signal-safe calls after fork() in a threaded process. Keep 0-3 (stdin, stdout, stderr, the
      // judge's message pipe), close the rest, in particular the GPU device files, so the daemon holds no GPU.
      close_range(4, ~0u, 0);
      setsid();
      sleep(30);
      _exit(0);
    }
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
