// expect: accepted
// judge-command: submit
// expect-timer: cupti
// Launches on its own cudaStreamNonBlocking stream and returns without synchronising. Not a cheat: the judge
// synchronises the whole device after solve() returns, before it checks the output, and times the work of the call
// on every stream, so the kernel is both finished in time and counted.
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  add<<<(N + 255) / 256, 256, 0, stream>>>(A, B, C, N);
  // no synchronisation: the kernel may still be running when solve() returns
}
