// Rung 1: one thread per output, reading its input window and the whole kernel straight from global memory.
// "Valid" means output[i] only exists where the kernel fits entirely: i + kernel_size - 1 <= input_size - 1, so there
// are input_size - kernel_size + 1 outputs. Neighbouring threads read overlapping windows, which the caches absorb.
#include <cuda_runtime.h>

__global__ void correlate(const float* input, const float* kernel, float* output, int output_size, int kernel_size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= output_size) return;
  float acc = 0.0f;
  for (int j = 0; j < kernel_size; ++j) acc += input[i + j] * kernel[j];  // kernel[j], not kernel[kernel_size-1-j]
  output[i] = acc;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_size, int kernel_size) {
  const int output_size = input_size - kernel_size + 1;
  const int threads = 256;
  correlate<<<(output_size + threads - 1) / threads, threads>>>(input, kernel, output, output_size, kernel_size);
  cudaDeviceSynchronize();
}
