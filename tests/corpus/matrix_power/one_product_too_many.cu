// expect: wrong_answer
// The classic off-by-one in the exponent: R starts as A and the loop runs p = 1 .. P, multiplying by A P times, so the
// result is A^(P+1). Every test with P >= 1 and a non-idempotent A catches it (the first example gives
// [[199, 290], [435, 634]] instead of [[37, 54], [81, 118]]).
#include <cuda_runtime.h>

__global__ void matmul(const float* X, const float* Y, float* C, int N) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= N || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += X[row * N + k] * Y[k * N + col];
  C[row * N + col] = acc;
}

extern "C" void solve(const float* input, float* output, int N, int P) {
  const size_t bytes = (size_t)N * N * sizeof(float);
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemcpy(a, input, bytes, cudaMemcpyDeviceToDevice);
  const dim3 block(16, 16), grid((N + 15) / 16, (N + 15) / 16);
  for (int p = 1; p <= P; ++p) {  // one product too many: should run P - 1 times
    matmul<<<grid, block>>>(a, input, b, N);
    float* t = a;
    a = b;
    b = t;
  }
  cudaMemcpy(output, a, bytes, cudaMemcpyDeviceToDevice);
  cudaFree(a);
  cudaFree(b);
}
