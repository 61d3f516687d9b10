// Rung 1: one thread per output element. Thread (r, j) walks row r of input and row j of weight together (both are
// contiguous: nn.Linear stores weight as [output_size, input_size]) and adds bias[j] at the end.
#include <cuda_runtime.h>

__global__ void linear_naive(const float* input, const float* weight, const float* bias, float* output,
                             int batch_size, int input_size, int output_size) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // output feature (column of output)
  const int r = blockIdx.y * blockDim.y + threadIdx.y;  // batch row
  if (r >= batch_size || j >= output_size) return;
  const float* x = input + (size_t)r * input_size;
  const float* w = weight + (size_t)j * input_size;
  float acc = 0.0f;
  for (int k = 0; k < input_size; ++k) acc += x[k] * w[k];
  output[(size_t)r * output_size + j] = acc + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  const dim3 threads(16, 16);
  const dim3 blocks((output_size + threads.x - 1) / threads.x, (batch_size + threads.y - 1) / threads.y);
  linear_naive<<<blocks, threads>>>(input, weight, bias, output, batch_size, input_size, output_size);
  cudaDeviceSynchronize();
}
