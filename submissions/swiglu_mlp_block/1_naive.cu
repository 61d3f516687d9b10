// Rung 1: two plain kernels, one thread per output element. The first computes each hidden element silu(gate) * up
// from a row of x and a column of W_gate and of W_up (one pass over the row for both dot products) into a scratch
// buffer; the second multiplies the hidden rows by W_down. Every operand comes from global memory on every use.
#include <cuda_runtime.h>

__global__ void hidden_kernel(const float* x, const float* W_gate, const float* W_up, float* hidden, int M, int d_model,
                              int d_ffn) {
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || f >= d_ffn) return;
  float gate = 0.0f, up = 0.0f;
  for (int k = 0; k < d_model; ++k) {
    const float xk = x[(size_t)i * d_model + k];
    gate += xk * W_gate[(size_t)k * d_ffn + f];
    up += xk * W_up[(size_t)k * d_ffn + f];
  }
  // silu(g) = g / (1 + exp(-g)): for very negative g, exp overflows to inf and g / inf = -0, the right limit.
  hidden[(size_t)i * d_ffn + f] = gate / (1.0f + expf(-gate)) * up;
}

__global__ void down_kernel(const float* hidden, const float* W_down, float* output, int M, int d_model, int d_ffn) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= d_model) return;
  float acc = 0.0f;
  for (int f = 0; f < d_ffn; ++f) acc += hidden[(size_t)i * d_ffn + f] * W_down[(size_t)f * d_model + j];
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
