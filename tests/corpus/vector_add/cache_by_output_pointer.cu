// expect: wrong_answer|output_not_written
// judge-command: submit
// Caches across calls, keyed on the argument pointers: the first call with a given (A, B, C, N) computes and keeps a
// copy of C; every later call with the same pointers only copies the saved copy back (one memcpy: a "fast" time).
// Each test case is a single call, so the tests pass, and a judge that reused the same inputs for every benchmark
// call would accept it. `judge submit` gives every timed call fresh inputs and a poisoned output and checks each
// one, so the copy is the answer to last call's inputs: `wrong_answer`. (The variant that skips the copy and leaves
// C alone gets `output_not_written`; the header admits both.)
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

namespace {
const float *g_a = nullptr, *g_b = nullptr;
float* g_c = nullptr;
int g_n = -1;
float* g_saved = nullptr;
}  // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  if (A == g_a && B == g_b && C == g_c && N == g_n && g_saved) {
    cudaMemcpy(C, g_saved, sizeof(float) * N, cudaMemcpyDeviceToDevice);  // "already computed"
    return;
  }
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaFree(g_saved);
  g_saved = nullptr;
  cudaMalloc(&g_saved, sizeof(float) * N);
  cudaMemcpy(g_saved, C, sizeof(float) * N, cudaMemcpyDeviceToDevice);
  g_a = A, g_b = B, g_c = C, g_n = N;
  cudaDeviceSynchronize();
}
