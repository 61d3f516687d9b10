// expect: crashed
// expect-message: SIGABRT
// abort() raises SIGABRT and the worker process dies inside solve(): there is no CUDA error to report and no
// exception to catch, only a signal, so the verdict is `crashed` and the message names the signal.
#include <cuda_runtime.h>

#include <cstdlib>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  if (N > 0) std::abort();  // "this cannot happen" asserts end the same way
}
