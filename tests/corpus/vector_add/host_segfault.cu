// expect: crashed
// expect-message: SIGSEGV
// Treats the device pointer as host memory: the host process segfaults inside solve().
#include <cuda_runtime.h>
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  volatile float* p = nullptr;
  p[N] = A[0];
}
