// expect: wrong_answer
// expect-message: elements wrong
// Keeps the hidden row x A^T in a fixed per-thread array of 64 floats and silently drops ranks beyond 64, a size
// that fits LeetGPU's performance case (rank 64) but not the constraints (rank up to 256). Caught by
// max_rank_8x512x300_r256.
#include <cuda_runtime.h>

constexpr int MAX_RANK = 64;

__global__ void lora_kernel(const float* x, const float* W, const float* A, const float* B, float* output, int batch,
                            int d_in, int d_out, int rank, float lora_scale) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= batch || j >= d_out) return;
  const int kept = rank < MAX_RANK ? rank : MAX_RANK;  // wrong: the rest of the rank is lost
  float h[MAX_RANK];
  for (int r = 0; r < kept; ++r) {
    h[r] = 0.0f;
    for (int k = 0; k < d_in; ++k) h[r] += x[i * d_in + k] * A[r * d_in + k];
  }
  float base = 0.0f, delta = 0.0f;
  for (int k = 0; k < d_in; ++k) base += x[i * d_in + k] * W[j * d_in + k];
  for (int r = 0; r < kept; ++r) delta += h[r] * B[j * rank + r];
  output[i * d_out + j] = base + lora_scale * delta;
}

extern "C" void solve(const float* x, const float* W, const float* A, const float* B, float* output, int batch,
                      int d_in, int d_out, int rank, float lora_scale) {
  const dim3 block(16, 16), grid((d_out + 15) / 16, (batch + 15) / 16);
  lora_kernel<<<grid, block>>>(x, W, A, B, output, batch, d_in, d_out, rank, lora_scale);
  cudaDeviceSynchronize();
}
