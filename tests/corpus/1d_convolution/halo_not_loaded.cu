// expect: wrong_answer
// judge-args: --case out257_k32 --case out100003_k63
// A shared-memory tile of exactly blockDim inputs: each thread loads one input, so the kernel_size - 1 inputs after
// the block's last one (the halo the last threads' windows reach into) are never loaded. Those reads are clamped to
// the tile, as a hasty bounds fix would do, so the last kernel_size - 1 outputs of every block use the wrong inputs.
#include <cuda_runtime.h>
#define THREADS 256
__global__ void correlate(const float* input, const float* kernel, float* output, int input_size, int output_size,
                          int kernel_size) {
  __shared__ float tile[THREADS];
  const int i = blockIdx.x * THREADS + threadIdx.x;
  tile[threadIdx.x] = i < input_size ? input[i] : 0.0f;
  __syncthreads();
  if (i >= output_size) return;
  float acc = 0.0f;
  for (int j = 0; j < kernel_size; ++j) {
    const int t = threadIdx.x + j < THREADS ? threadIdx.x + j : THREADS - 1;  // "stay inside the tile"
    acc += tile[t] * kernel[j];
  }
  output[i] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size + 1;
  correlate<<<(output_size + THREADS - 1) / THREADS, THREADS>>>(input, kernel, output, input_size, output_size,
                                                               kernel_size);
  cudaDeviceSynchronize();
}
