// expect: wrong_answer
// expect-message: elements wrong
// Multiplies operands rounded to TF32 (a 10-bit mantissa) with float accumulation: what a TF32 tensor-core kernel
// (wmma or mma with precision::tf32) computes, written as plain FMAs so the entry runs on any GPU. At LeetGPU's own
// scales (outputs near 1e-4) the absolute tolerance hides the error, but with unit-scale inputs about 60% of the
// outputs miss the 1e-4 + 1e-4 |ref| bound (see the statement's tolerance section).
#include <cuda_runtime.h>

// Rounds to TF32 (10 explicit mantissa bits, round to nearest, ties away), what a TF32 tensor core does to its inputs.
__device__ __forceinline__ float tf32(float v) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}

__global__ void hidden_kernel(const float* x, const float* W_gate, const float* W_up, float* hidden, int M, int d_model,
                              int d_ffn) {
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || f >= d_ffn) return;
  float gate = 0.0f, up = 0.0f;
  for (int k = 0; k < d_model; ++k) {
    const float xk = tf32(x[(size_t)i * d_model + k]);
    gate += xk * tf32(W_gate[(size_t)k * d_ffn + f]);
    up += xk * tf32(W_up[(size_t)k * d_ffn + f]);
  }
  hidden[(size_t)i * d_ffn + f] = gate / (1.0f + expf(-gate)) * up;
}

__global__ void down_kernel(const float* hidden, const float* W_down, float* output, int M, int d_model, int d_ffn) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= d_model) return;
  float acc = 0.0f;
  for (int f = 0; f < d_ffn; ++f) acc += tf32(hidden[(size_t)i * d_ffn + f]) * tf32(W_down[(size_t)f * d_model + j]);
  output[(size_t)i * d_model + j] = acc;
}

extern "C" void solve(const float* x, const float* W_gate, const float* W_up, const float* W_down, float* output, int M,
                      int d_model, int d_ffn) {
  static float* hidden = nullptr;  // kept between calls, grown when a larger case comes
  static size_t capacity = 0;
  const size_t need = (size_t)M * d_ffn;
  if (need > capacity) {
    cudaFree(hidden);
    cudaMalloc(&hidden, need * sizeof(float));
    capacity = need;
  }
  const dim3 block(32, 8);
  hidden_kernel<<<dim3((d_ffn + 31) / 32, (M + 7) / 8), block>>>(x, W_gate, W_up, hidden, M, d_model, d_ffn);
  down_kernel<<<dim3((d_model + 31) / 32, (M + 7) / 8), block>>>(hidden, W_down, output, M, d_model, d_ffn);
  cudaDeviceSynchronize();
}
