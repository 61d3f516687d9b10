// expect: wrong_answer
// expect-message: elements wrong
// Reads weight as if it were stored [input_size, output_size] (the math-textbook W in y = x W + b), while
// nn.Linear stores it [output_size, input_size]. The index k * output_size + j stays inside the buffer, so nothing
// crashes; the example already gives [3.6, 2.2] instead of [2.6, 2.7], and rect_5x37x3 is wrong everywhere.
#include <cuda_runtime.h>

__global__ void linear(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                       int input_size, int output_size) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= batch_size || j >= output_size) return;
  float acc = 0.0f;
  for (int k = 0; k < input_size; ++k) acc += input[r * input_size + k] * weight[k * output_size + j];
  output[r * output_size + j] = acc + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  const dim3 threads(16, 16);
  const dim3 blocks((output_size + 15) / 16, (batch_size + 15) / 16);
  linear<<<blocks, threads>>>(input, weight, bias, output, batch_size, input_size, output_size);
  cudaDeviceSynchronize();
}
