// expect: wrong_answer
// expect-message: elements wrong
// Reads B (d_out x rank) as if it were stored rank x d_out: B[r * d_out + j] instead of B[j * rank + r]. The index
// stays inside B, so nothing crashes, but for rank > 1 the adapter term pairs h with the wrong entries; caught by the
// example and by nonsquare_64x48x80_r8.
#include <cuda_runtime.h>

__global__ void lora_kernel(const float* x, const float* W, const float* A, const float* B, float* output, int batch,
                            int d_in, int d_out, int rank, float lora_scale) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= batch || j >= d_out) return;
  float base = 0.0f, delta = 0.0f;
  for (int k = 0; k < d_in; ++k) base += x[i * d_in + k] * W[j * d_in + k];
  for (int r = 0; r < rank; ++r) {
    float h = 0.0f;
    for (int k = 0; k < d_in; ++k) h += x[i * d_in + k] * A[r * d_in + k];
    delta += h * B[r * d_out + j];  // wrong: B is d_out x rank
  }
  output[i * d_out + j] = base + lora_scale * delta;
}

extern "C" void solve(const float* x, const float* W, const float* A, const float* B, float* output, int batch,
                      int d_in, int d_out, int rank, float lora_scale) {
  const dim3 block(16, 16), grid((d_out + 15) / 16, (batch + 15) / 16);
  lora_kernel<<<grid, block>>>(x, W, A, B, output, batch, d_in, d_out, rank, lora_scale);
  cudaDeviceSynchronize();
}
