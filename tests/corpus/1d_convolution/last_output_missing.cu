// expect: wrong_answer
// expect-message: 1 never written
// judge-args: --case out33_k5 --case out4097_k2047
// Off by one at the right edge: output_size taken as input_size - kernel_size, so the last position where the kernel
// still fits (i = input_size - kernel_size) is never computed and keeps the judge's poison. (For a single output,
// as in n1_k1, nothing is written at all, which is the output_not_written verdict: the cases named above have
// something else to get right.)
#include <cuda_runtime.h>
__global__ void correlate(const float* input, const float* kernel, float* output, int output_size, int kernel_size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= output_size) return;
  float acc = 0.0f;
  for (int j = 0; j < kernel_size; ++j) acc += input[i + j] * kernel[j];
  output[i] = acc;
}
extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size;  // should be + 1
  if (output_size > 0)
    correlate<<<(output_size + 255) / 256, 256>>>(input, kernel, output, output_size, kernel_size);
  cudaDeviceSynchronize();
}
