// expect: wrong_answer
// expect-message: elements wrong
// Rounds both operands to TF32 (10 mantissa bits, round to nearest as cvt.rna.tf32.f32 does) before multiplying,
// i.e. what TF32 tensor cores (cuBLAS's TF32 math mode, torch.backends.cuda.matmul.allow_tf32) compute. Each product
// is then off by up to 2^-10 relative; over a 37-term dot product of unit-size inputs that is about 1e-4, ten times
// atol = 1e-5. The rounding is done by hand so that the verdict does not depend on which kernel cuBLAS picks.
#include <cuda_runtime.h>

__device__ float to_tf32(float v) {
  unsigned u = __float_as_uint(v);
  u = (u + 0x1000u) & 0xffffe000u;  // round the 13 dropped mantissa bits to nearest (ties away), then drop them
  return __uint_as_float(u);
}

__global__ void linear(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                       int input_size, int output_size) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= batch_size || j >= output_size) return;
  float acc = 0.0f;
  for (int k = 0; k < input_size; ++k)
    acc += to_tf32(input[r * input_size + k]) * to_tf32(weight[j * input_size + k]);
  output[r * output_size + j] = acc + bias[j];
}

extern "C" void solve(const float* input, const float* weight, const float* bias, float* output, int batch_size,
                      int input_size, int output_size) {
  const dim3 threads(16, 16);
  const dim3 blocks((output_size + 15) / 16, (batch_size + 15) / 16);
  linear<<<blocks, threads>>>(input, weight, bias, output, batch_size, input_size, output_size);
  cudaDeviceSynchronize();
}
