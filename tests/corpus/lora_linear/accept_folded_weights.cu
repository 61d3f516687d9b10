// expect: accepted
// Evaluates the adapter in the other order, x (W + lora_scale B A)^T: folds the low-rank update into a merged weight
// first (each entry rounded to float once more), then does one plain product. More work than (x A^T) B^T, but a
// correct float32 algorithm, which LeetGPU's tolerance must (and does, with margin) accept.
#include <cuda_runtime.h>

__global__ void fold_kernel(const float* W, const float* A, const float* B, float* W_eff, int d_in, int d_out,
                            int rank, float lora_scale) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= d_out || k >= d_in) return;
  float ba = 0.0f;
  for (int r = 0; r < rank; ++r) ba += B[(size_t)j * rank + r] * A[(size_t)r * d_in + k];
  W_eff[(size_t)j * d_in + k] = W[(size_t)j * d_in + k] + lora_scale * ba;
}

__global__ void linear_kernel(const float* x, const float* W_eff, float* output, int batch, int d_in, int d_out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= batch || j >= d_out) return;
  float acc = 0.0f;
  for (int k = 0; k < d_in; ++k) acc += x[(size_t)i * d_in + k] * W_eff[(size_t)j * d_in + k];
  output[(size_t)i * d_out + j] = acc;
}

extern "C" void solve(const float* x, const float* W, const float* A, const float* B, float* output, int batch,
                      int d_in, int d_out, int rank, float lora_scale) {
  float* W_eff = nullptr;
  cudaMalloc(&W_eff, (size_t)d_out * d_in * sizeof(float));
  const dim3 block(16, 16);
  fold_kernel<<<dim3((d_in + 15) / 16, (d_out + 15) / 16), block>>>(W, A, B, W_eff, d_in, d_out, rank, lora_scale);
  linear_kernel<<<dim3((d_out + 15) / 16, (batch + 15) / 16), block>>>(x, W_eff, output, batch, d_in, d_out);
  cudaDeviceSynchronize();
  cudaFree(W_eff);
}
