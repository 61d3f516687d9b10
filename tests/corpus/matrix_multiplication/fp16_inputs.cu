// expect: wrong_answer
// "Tensor-core thinking" without the care: A and B are rounded to __half (11 significant bits, a relative error of
// up to 2^-11 per value) and multiplied in half; only the sum is kept in float. On the 4097-long dot products the
// rounding errors add up to about 1e-2, several times the tolerance (1e-3 + 1e-4 |ref|): `wrong_answer`. FP32 inputs
// are part of the problem; an error budget of 1e-4 relative cannot be met after throwing 13 bits away.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void mm_half(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < K) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) {
      __half a = __float2half(A[row * N + k]);
      __half b = __float2half(B[k * K + col]);
      acc += __half2float(__hmul(a, b));
    }
    C[row * K + col] = acc;
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16), grid((K + 15) / 16, (M + 15) / 16);
  mm_half<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
