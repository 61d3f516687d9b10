// expect: wrong_answer
// Exponentiation by squaring with the loop condition one bit short: `while (e > 1)` squares the base and multiplies in
// the set bits below the top one, then leaves without multiplying in the final base (the top bit of P). The result
// is A^(P - 2^floor(log2 P)): the identity for P = 1, 2, 4, 16, A for P = 3 or 5. The first example (P = 3) already
// gets A instead of A^3.
#include <cuda_runtime.h>

__global__ void matmul(const float* X, const float* Y, float* C, int N) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= N || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += X[row * N + k] * Y[k * N + col];
  C[row * N + col] = acc;
}

__global__ void identity(float* I, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * N) I[i] = (i / N == i % N) ? 1.0f : 0.0f;
}

extern "C" void solve(const float* input, float* output, int N, int P) {
  const size_t count = (size_t)N * N, bytes = count * sizeof(float);
  float* buf = nullptr;
  cudaMalloc(&buf, 4 * bytes);
  float *result = buf, *base = buf + count, *tmp = buf + 2 * count;
  identity<<<(count + 255) / 256, 256>>>(result, N);
  cudaMemcpy(base, input, bytes, cudaMemcpyDeviceToDevice);
  const dim3 block(16, 16), grid((N + 15) / 16, (N + 15) / 16);
  for (int e = P; e > 1; e >>= 1) {  // should be e > 0 (or multiply the base in once more after the loop)
    if (e & 1) {
      matmul<<<grid, block>>>(result, base, tmp, N);
      float* t = result; result = tmp; tmp = t;
    }
    matmul<<<grid, block>>>(base, base, tmp, N);
    float* t = base; base = tmp; tmp = t;
  }
  cudaMemcpy(output, result, bytes, cudaMemcpyDeviceToDevice);
  cudaFree(buf);
}
