// expect: wrong_answer
// expect-message: not in their order in A
// The classic shortcut: every kept element takes the next free slot with atomicAdd on a global counter. It keeps the
// right k values and writes nothing past them (it relies on out arriving zeroed, which is allowed), but the slots are
// handed out in whatever order the threads reach the counter, so the kept elements lose their order in A. The
// statement requires that order; wide_1000003 (thousands of blocks running at once) scrambles it every time, and the
// checker says the values are right and the order is not.
#include <cuda_runtime.h>

__device__ unsigned g_next_slot;

__global__ void compact(const float* A, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && A[i] > 0.0f) out[atomicAdd(&g_next_slot, 1u)] = A[i];
}

extern "C" void solve(const float* A, int N, float* out) {
  const unsigned zero = 0;
  cudaMemcpyToSymbol(g_next_slot, &zero, sizeof(zero));
  compact<<<(N + 255) / 256, 256>>>(A, N, out);
  cudaDeviceSynchronize();
}
