// expect: output_not_written|suspicious_timing
// Tries to hide its work from the timer: solve() returns at once, and a detached host thread launches the kernel
// 100 ms later. The judge checks the output as soon as solve() has returned and the device is idle, so it is still
// poisoned (`output_not_written`); a judge that watches for CUDA work outside solve() may instead see the late
// launch first (`suspicious_timing`). Both verdicts reject it, and which one comes first is a matter of timing.
// The judge also stops the submission's process between calls, so the thread cannot launch while the output is
// checked at all: it wakes at the judge's next command, when the verdict on this call has been reached.
#include <cuda_runtime.h>

#include <chrono>
#include <thread>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  std::thread([=] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    add<<<(N + 255) / 256, 256>>>(A, B, C, N);
    cudaDeviceSynchronize();
  }).detach();
}
