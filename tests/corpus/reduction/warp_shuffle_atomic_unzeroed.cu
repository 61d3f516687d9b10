// expect: wrong_answer
// expect-message: zero it first (cudaMemset
// The shape of most LeetGPU reduction answers: a grid-stride loop, a warp-shuffle sum, one atomicAdd per warp into
// output[0], and no cudaMemset of output before the kernel, because on a freshly zeroed allocation it happened to
// work. Outputs arrive uninitialised (on LeetGPU as here); the judge's are NaN, so every call gets "got nan", and the
// message must say why: the output was read (accumulated into) before anything wrote it.
#include <cuda_runtime.h>

__global__ void sum_kernel(const float* input, float* output, int N) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) v += input[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(output, v);
}

extern "C" void solve(const float* input, float* output, int N) {
  int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  sum_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
