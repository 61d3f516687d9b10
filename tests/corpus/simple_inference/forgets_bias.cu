// expect: wrong_answer
// expect-message: elements wrong
// Computes the product input W^T and never adds the bias. Only no_bias_6x10x7 passes; zero_weight_9x4x5, where
// the right answer is the bias itself, gets all zeros.
#include <cuda_runtime.h>

__global__ void linear(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                       int input_size, int output_size) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= batch_size || j >= output_size) return;
  float acc = 0.0f;
  for (int k = 0; k < input_size; ++k) acc += input[r * input_size + k] * weight[j * input_size + k];
  output[r * output_size + j] = acc;
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  const dim3 threads(16, 16);
  const dim3 blocks((output_size + 15) / 16, (batch_size + 15) / 16);
  linear<<<blocks, threads>>>(input, weight, bias, output, batch_size, input_size, output_size);
  cudaDeviceSynchronize();
}
