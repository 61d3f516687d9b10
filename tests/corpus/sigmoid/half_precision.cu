// expect: wrong_answer
// expect-message: elements wrong
// Computes in half precision (hexp and a half division): about three decimal digits, so outputs are off by up to
// 7.3e-4 where the tolerance allows about 1e-5 to 2e-5. The first case already fails: sigmoid(1.5) = 0.8175745 lies
// between the halves 0.8173828 and 0.8178711, at least 1.9e-4 from either.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void sigmoid_kernel(const float* X, float* Y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    __half one = __float2half(1.0f);
    __half x = __float2half(X[i]);
    Y[i] = __half2float(one / (one + hexp(-x)));
  }
}

extern "C" void solve(const float* X, float* Y, int N) {
  sigmoid_kernel<<<(N + 255) / 256, 256>>>(X, Y, N);
  cudaDeviceSynchronize();
}
