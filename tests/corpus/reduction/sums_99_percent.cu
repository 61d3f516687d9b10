// expect: wrong_answer
// Sums only the first 99% of the input and rescales: close, but not the sum.
#include <cuda_runtime.h>
__global__ void partial(const float* x, float* out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0] / 0.99f);
}
extern "C" void solve(const float* input, float* output, int N) {
  int n = static_cast<int>(N * 0.99);
  cudaMemset(output, 0, sizeof(float));
  if (n > 0) partial<<<(n + 255) / 256, 256>>>(input, output, n);
  cudaDeviceSynchronize();
}
